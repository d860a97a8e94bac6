import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import { describeBrowser, type ActivityEntry } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { CardList } from '#web/components/card-list';
import { LoadFailed } from '#web/components/load-failed';
import { NothingToShow } from '#web/components/nothing-to-show';
import { PageSpinner } from '#web/components/page-spinner';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { useShareLinks } from '#web/lib/share-links';
import { useAccountActivity } from './api/account-activity';
import { describeActivity } from './activity-wording';
import classes from './account-activity-page.module.css';

function Entry({
  entry,
  shareLinkLabels,
}: {
  entry: ActivityEntry;
  shareLinkLabels: ReadonlyMap<string, string>;
}) {
  const at = dayjs(entry.at);
  return (
    <Paper component="li" withBorder p="sm" className={classes.entry}>
      <Text fw={600}>{describeActivity(entry, shareLinkLabels)}</Text>
      <Text size="sm" c="dimmed">
        <time dateTime={entry.at}>{at.format(`${dateFormat} HH:mm`)}</time>
        {' · '}
        {describeBrowser(entry.user_agent)}
        {entry.ip !== null && ` · ${entry.ip}`}
      </Text>
    </Paper>
  );
}

/**
 * Account activity: what was done with the account and its health data, newest first, in plain
 * words (docs/decisions/audit-trail.md).
 */
export default function AccountActivityPage() {
  useDocumentTitle('Account activity');
  const activity = useAccountActivity();
  const entries = activity.data?.pages.flatMap((page) => page.results) ?? [];
  // Rows of share links name them by label; without the list they still read plainly.
  const shareLinks = useShareLinks(entries.some((entry) => entry.resource_type === 'share_link'));
  const shareLinkLabels = new Map(shareLinks.data?.map((link) => [link.id, link.label]));
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account}>
        Back to My Account
      </Anchor>
      <Title order={1}>Account activity</Title>
      <Text>
        Every sign-in, and every time your photos, records, appointments, Dental AI results and
        consultations were opened, added, changed or deleted.
      </Text>
      {activity.isPending && <PageSpinner />}
      {activity.isError && <LoadFailed error={activity.error} onRetry={activity.refetch} />}
      {activity.isSuccess && entries.length === 0 && <NothingToShow />}
      {entries.length > 0 && (
        <CardList label="Account activity, newest first">
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} shareLinkLabels={shareLinkLabels} />
          ))}
        </CardList>
      )}
      {activity.hasNextPage && (
        <Group>
          <Button
            variant="outline"
            loading={activity.isFetchingNextPage}
            onClick={() => {
              void activity.fetchNextPage();
            }}
          >
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
