import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Progress,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import {
  reportKindNames,
  reportKinds,
  type Report,
  type ReportKind,
  type ReportRemaining,
} from '@dental/contracts';
import { DeleteButton } from '#web/components/delete-button';
import {
  ShareButton,
  ShareSelectionBar,
  useShareSelection,
  type ShareSelection,
} from '#web/components/share-selection';
import { LoadFailed } from '#web/components/load-failed';
import { paths } from '#web/config/paths';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { bottomBarRoom } from '#web/lib/list-pages';
import { leftThisYear, useReports } from '#web/lib/reports';
import { useDeleteReport, useGenerateReport, useReport } from './api/reports';

const kindDescriptions: Record<ReportKind, string> = {
  treatment_history:
    'Consultations with the doctor’s summaries, appointments, Dental AI results, dentists’ reviews, photos and X-rays by tooth, and medical records.',
  summary: 'Every payment with its receipt number, then your history in counts and dates.',
};

const statusTexts: Record<Report['status'], string> = {
  queued: 'Waiting',
  running: 'Generating',
  done: 'Ready',
  failed: 'Failed',
};

function GenerateForm({ remaining }: { remaining: ReportRemaining }) {
  const today = dayjs().format(dateFormat);
  const [kind, setKind] = useState<ReportKind>('treatment_history');
  const [from, setFrom] = useState(dayjs().subtract(12, 'month').add(1, 'day').format(dateFormat));
  const [to, setTo] = useState(today);
  const generate = useGenerateReport();
  return (
    <Section title="Generate a report">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          generate.mutate({ kind, from, to });
        }}
      >
        <Stack gap="md">
          <Radio.Group
            label="Kind"
            value={kind}
            onChange={(value) => {
              setKind(value);
            }}
          >
            <Stack gap="sm" mt={4}>
              {reportKinds.map((option) => (
                <Radio
                  key={option}
                  value={option}
                  label={`${reportKindNames[option]} (${leftThisYear(remaining[option])})`}
                  description={kindDescriptions[option]}
                />
              ))}
            </Stack>
          </Radio.Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              type="date"
              label="From"
              required
              max={to}
              value={from}
              onChange={(event) => {
                setFrom(event.currentTarget.value);
              }}
            />
            <TextInput
              type="date"
              label="To"
              required
              min={from}
              value={to}
              onChange={(event) => {
                setTo(event.currentTarget.value);
              }}
            />
          </SimpleGrid>
          {generate.isError && (
            <Alert color="red" variant="outline" role="alert">
              {errorMessage(generate.error)}
            </Alert>
          )}
          {generate.isSuccess && (
            <Text role="status">
              Your report is being generated. You can leave this page; we will e-mail you when it is
              ready.
            </Text>
          )}
          <Group>
            <Button type="submit" loading={generate.isPending}>
              Generate
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function ReportItem({ listed, sharing }: { listed: Report; sharing: ShareSelection }) {
  const { data: row } = useReport(listed);
  const deletion = useDeleteReport();
  const percent = Math.round(row.progress * 100);
  const name = reportKindNames[row.kind];
  // Only a finished report has a PDF to share.
  const shareable = sharing.choosing && row.status === 'done';
  return (
    <Paper component="li" withBorder p="sm">
      <Stack gap={6}>
        <Text fw={600}>{name}</Text>
        <Text size="sm">
          {row.from} to {row.to} · asked {dayjs(row.created_at).format(`${dateFormat} HH:mm`)}
        </Text>
        <Text size="sm" role="status">
          {statusTexts[row.status]}
          {row.status === 'running' || row.status === 'queued' ? `: ${String(percent)}%` : ''}
          {row.status === 'failed' && row.error !== null ? `. ${row.error}` : ''}
        </Text>
        {(row.status === 'queued' || row.status === 'running') && (
          <Progress value={percent} aria-label={`${name} ${String(percent)}% generated`} animated />
        )}
        {shareable ? (
          <Checkbox
            label="Share"
            aria-label={`Share ${name}, ${row.from} to ${row.to}`}
            checked={sharing.isChosen(row.id)}
            onChange={(event) => {
              sharing.choose(row.id, event.currentTarget.checked);
            }}
          />
        ) : (
          <Group gap="sm">
            {row.download_url !== null && (
              <Button component="a" href={row.download_url} download size="xs">
                Download
              </Button>
            )}
            <DeleteButton
              deletion={deletion}
              id={row.id}
              title="Delete report"
              question={`Delete this ${name.toLowerCase()}? It still counts as one of this year’s reports.`}
            />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** The member's reports, newest first; the ready ones can be shared with a dentist. */
function ReportList({ results }: { results: Report[] }) {
  const sharing = useShareSelection();
  return (
    <Section title="Your reports">
      {results.length === 0 ? (
        <Text>No reports yet.</Text>
      ) : (
        <>
          {results.some((row) => row.status === 'done') && (
            <Group justify="flex-end" mb="sm">
              <ShareButton selection={sharing} />
            </Group>
          )}
          <Stack
            component="ul"
            gap="sm"
            p={0}
            m={0}
            // The last report stays clear of the bar while choosing what to share.
            mb={sharing.choosing ? bottomBarRoom : 0}
            style={{ listStyle: 'none' }}
          >
            {results.map((row) => (
              <ReportItem key={row.id} listed={row} sharing={sharing} />
            ))}
          </Stack>
        </>
      )}
      <ShareSelectionBar
        selection={sharing}
        kind="reports"
        noun={(count) => (count === 1 ? '1 report' : `${String(count)} reports`)}
      />
    </Section>
  );
}

/** Reports (docs/product/reports.md): generate a treatment history or a receipts and history
 *  summary of a period as a PDF, follow its progress, download, delete or share it. */
export default function ReportsPage() {
  useDocumentTitle('Reports');
  const reports = useReports();
  return (
    <Stack gap="lg">
      <Title order={1}>Reports</Title>
      <Text>
        Turn a period of your record into a PDF to keep, print or give to a dentist or an insurer.
        Each report counts against your plan for the calendar year; one that fails is not counted.
      </Text>
      {reports.isPending && <Text>Loading your reports…</Text>}
      {reports.isError && <LoadFailed error={reports.error} onRetry={reports.refetch} />}
      {reports.data && (
        <>
          <GenerateForm remaining={reports.data.remaining} />
          <ReportList results={reports.data.results} />
        </>
      )}
      <Anchor component={Link} to={paths.membership} size="sm">
        Plans and what each allows
      </Anchor>
    </Stack>
  );
}
