import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { plans } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { useAccount } from '#web/lib/account';
import { useDocumentTitle } from '#web/lib/document-title';
import { MessagesCard } from './messages-card';
import { ReadyReportsNotice } from './ready-reports-notice';
import { TopicCardLink } from './topic-card-link';
import { UpNextStrip } from './up-next-strip';
import { topicCards } from './topic-cards';
import classes from './home-page.module.css';

/** Home (docs/product/general.md#home): the greeting, the way to a membership, what is next, a
 *  report that is ready, the messages with the practice and the seven topics; Log out is in the
 *  frame of every screen (app-layout). */
export default function HomePage() {
  useDocumentTitle('Home');
  // The plan as the account says it now: refetched when a payment completes (membership-page).
  const level = useAccount().data?.customer_level;
  const plan = level === undefined ? undefined : plans[level];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1}>You are ready to go!</Title>
        <Anchor component={Link} to={paths.membership} fw={600}>
          Membership Upgrade
        </Anchor>
      </Group>
      <UpNextStrip />
      <ReadyReportsNotice />
      <MessagesCard />
      <ul className={classes.grid} aria-label="Topics">
        {topicCards.map((card) => (
          <TopicCardLink key={card.key} card={card} plan={plan} />
        ))}
      </ul>
    </Stack>
  );
}
