import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import { appointmentEventSummary, consultationEventSummary } from '@dental/contracts';
import { PageSpinner } from '#web/components/page-spinner';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import {
  useCalendarFeed,
  useCreateCalendarFeed,
  useRevokeCalendarFeed,
} from '../api/calendar-feed';

/**
 * The Profile's private calendar feed (docs/decisions/calendar-export.md): a URL calendar apps
 * subscribe to. It is shown once, when made, as only its hash is kept; making a new one or
 * turning it off stops the old one at once.
 */
function CalendarFeed() {
  const feed = useCalendarFeed();
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  if (feed.isPending) return <PageSpinner />;
  if (feed.isError) return <Alert color="red">{errorMessage(feed.error)}</Alert>;
  const shownUrl = feed.data.active ? create.data?.url : undefined;
  const failure = create.error ?? revoke.error;
  return (
    <Stack gap="sm" align="flex-start">
      <Text>
        Subscribe to your appointments and consultations from a calendar app. The feed shows only ‘
        {appointmentEventSummary}’ or ‘{consultationEventSummary}’ and the time, with your
        reminders: no notes, doctors or answers. Anyone with the link can see these times, so keep
        it to yourself. Signing out everywhere else or changing your password turns the link off;
        make a new one here in one click.
      </Text>
      {shownUrl !== undefined && (
        <Stack gap="xs" w="100%">
          <TextInput
            label="Your calendar feed URL"
            description="Copy it now: it is shown only once."
            value={shownUrl}
            readOnly
            onFocus={(event) => {
              event.currentTarget.select();
            }}
          />
          <CopyButton value={shownUrl}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} style={{ alignSelf: 'flex-start' }}>
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
        </Stack>
      )}
      {feed.data.active && shownUrl === undefined && feed.data.created_at !== null && (
        <Text>
          Your calendar link is on since {dayjs(feed.data.created_at).format(dateFormat)}.
        </Text>
      )}
      {failure !== null && <Alert color="red">{errorMessage(failure)}</Alert>}
      <Group gap="sm">
        <Button
          loading={create.isPending}
          disabled={revoke.isPending}
          onClick={() => {
            revoke.reset();
            create.mutate();
          }}
        >
          {feed.data.active ? 'Make a new link' : 'Create calendar link'}
        </Button>
        {feed.data.active && (
          <Button
            variant="default"
            loading={revoke.isPending}
            disabled={create.isPending}
            onClick={() => {
              create.reset();
              revoke.mutate();
            }}
          >
            Turn off the link
          </Button>
        )}
      </Group>
      {feed.data.active && (
        <Text size="sm" c="dimmed">
          A new link stops the old one working; turning it off removes it from every calendar that
          subscribed.
        </Text>
      )}
    </Stack>
  );
}

export function CalendarFeedSection() {
  return (
    <Section title="Calendar feed">
      <CalendarFeed />
    </Section>
  );
}
