import { Badge, Group, Title } from '@mantine/core';
import type { MessageThreadStatus } from '@dental/contracts';
import classes from '../messages.module.css';

/** A conversation's subject as the page's heading, marked when closed (the member's and the
 *  clinic console's conversation). */
export function ThreadHeading({
  subject,
  status,
}: {
  subject: string;
  status: MessageThreadStatus;
}) {
  return (
    <Group gap="sm" align="center">
      <Title order={1} className={classes.subject}>
        {subject}
      </Title>
      {status === 'closed' && (
        <Badge color="gray" variant="outline">
          Closed
        </Badge>
      )}
    </Group>
  );
}
