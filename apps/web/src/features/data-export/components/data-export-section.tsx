import { Alert, Anchor, Button, Progress, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { dataExportLinkDays, formatStorage, type DataExport } from '@dental/contracts';
import { PageSpinner } from '#web/components/page-spinner';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useDataExports, useStartDataExport } from '../api/data-export';

function ExportState({ latest }: { latest: DataExport }) {
  switch (latest.status) {
    case 'queued':
    case 'running': {
      const percent = Math.round(latest.progress * 100);
      return (
        <Stack gap={4} w="100%">
          <Text size="sm" role="status">
            Preparing your archive: {percent}%. You can leave this page; we will e-mail you when it
            is ready.
          </Text>
          <Progress value={percent} aria-label={`Archive ${percent}% prepared`} animated />
        </Stack>
      );
    }
    case 'done':
      return (
        <Stack gap={4}>
          <Anchor href={latest.download_url ?? undefined} download fw={600}>
            Download your archive
            {latest.size_bytes === null ? '' : ` (${formatStorage(latest.size_bytes)})`}
          </Anchor>
          {latest.expires_at !== null && (
            <Text size="sm" c="dimmed">
              Available until {dayjs(latest.expires_at).format(dateFormat)}, then deleted.
            </Text>
          )}
        </Stack>
      );
    case 'failed':
      return (
        <Alert color="red" variant="outline">
          We could not prepare your archive. Please try again; if it fails again, contact us.
        </Alert>
      );
  }
}

/**
 * 'Download my data' (docs/decisions/data-export.md): the whole record as a zip, built in the
 * background; the newest archive's progress, then its link, which works for 7 days.
 */
function DataExport() {
  const exports = useDataExports();
  const start = useStartDataExport();
  if (exports.isPending) return <PageSpinner />;
  if (exports.isError) return <Alert color="red">{errorMessage(exports.error)}</Alert>;
  const [latest] = exports.data;
  const building = latest?.status === 'queued' || latest?.status === 'running';
  return (
    <Stack gap="sm" align="flex-start">
      <Text>
        Get a copy of your whole dental record: photos and X-rays, medical and insurance records
        with their files, appointments, Dental AI results and consultations. It is a zip file with a
        page that opens in any browser, and a FHIR file that other health apps and dentists’ systems
        can read. The download link works for {dataExportLinkDays} days.
      </Text>
      {latest !== undefined && <ExportState latest={latest} />}
      {start.error !== null && <Alert color="red">{errorMessage(start.error)}</Alert>}
      <Button
        loading={start.isPending}
        disabled={building}
        onClick={() => {
          start.mutate();
        }}
      >
        {latest?.status === 'done' ? 'Make a new copy' : 'Download my data'}
      </Button>
    </Stack>
  );
}

export function DataExportSection() {
  return (
    <Section title="Download my data">
      <DataExport />
    </Section>
  );
}
