import { Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconMessages } from '@tabler/icons-react';
import { messagePaths, unreadMessages } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { apiRequest } from '#web/lib/api-client';
import { messagesQueryKey, useLiveMessages } from '#web/lib/message-events';
import classes from './home-card.module.css';

/** Home's Messages card (docs/decisions/care-messages-live.md#home): the way to the messages
 *  with the practice and how many of its messages are unread, kept live. */
export function MessagesCard() {
  useLiveMessages();
  const unread = useQuery({
    queryKey: [...messagesQueryKey, 'unread'],
    queryFn: () => apiRequest(messagePaths.unread, unreadMessages),
  });
  const count = unread.data?.unread ?? 0;
  return (
    <Link to={paths.messages} className={classes.card}>
      <IconMessages size={32} aria-hidden />
      <Text component="span" fw={600} className={classes.name}>
        Messages with the practice
      </Text>
      {count > 0 && (
        <Badge color="red" variant="filled" size="lg">
          {count} unread
        </Badge>
      )}
    </Link>
  );
}
