import { useEffect, useState } from 'react';
import { Alert, Button, FileInput, List, Progress, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { dataImportKinds, type DataImport, type DataImportKind } from '@dental/contracts';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { useDataImport, useStartDataImport } from '../api/data-import';

const kindNames: Record<DataImportKind, string> = {
  photos: 'Photos',
  x_rays: 'X-rays',
  medical_records: 'Medical and insurance records',
  appointments: 'Appointments',
  dental_ai_results: 'Dental AI results',
};

function ImportOutcome({ outcome }: { outcome: DataImport }) {
  if (outcome.status === 'queued' || outcome.status === 'running') {
    const percent = Math.round(outcome.progress * 100);
    return (
      <Stack gap={4} w="100%">
        <Text size="sm" role="status">
          Importing your record: {percent}%.
        </Text>
        <Progress value={percent} aria-label={`Import ${percent}% done`} animated />
      </Stack>
    );
  }
  const failed = outcome.status === 'failed';
  return (
    <Stack gap="xs" w="100%" role="status">
      {failed ? (
        <Alert color="red" variant="outline" title="Nothing was imported">
          Your record is as it was.
        </Alert>
      ) : (
        <>
          <Text fw={600}>Import finished</Text>
          <List size="sm" aria-label="Imported">
            {dataImportKinds.map((kind) => (
              <List.Item key={kind}>
                {kindNames[kind]}: {outcome.imported[kind]}
              </List.Item>
            ))}
          </List>
          <Text size="sm">
            {outcome.skipped === 0
              ? 'Nothing was already in your record.'
              : `${String(outcome.skipped)} already in your record, left as they were.`}
          </Text>
        </>
      )}
      {outcome.errors.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {failed ? 'Why' : 'Not imported'}
          </Text>
          <List size="sm">
            {outcome.errors.map((error, index) => (
              // The same entry can be named twice (two of its files); the order is the answer's.
              <List.Item key={`${error.entry ?? 'import'}-${String(index)}`}>
                {error.resource_type === null ? '' : `${error.resource_type}: `}
                {error.detail}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}

/**
 * 'Import a record' (docs/decisions/data-import.md): a zip made by 'Download my data' here or on
 * another installation, or its FHIR Bundle alone; the job's progress, then what it brought in.
 */
function DataImportForm() {
  const [file, setFile] = useState<File | null>(null);
  const start = useStartDataImport();
  const current = useDataImport(start.data?.id);
  const queryClient = useQueryClient();
  const status = current.data?.status;
  useEffect(() => {
    // The imported items show on their own screens at once.
    if (status === 'done') void queryClient.invalidateQueries();
  }, [status, queryClient]);
  const running = start.isPending || status === 'queued' || status === 'running';
  return (
    <Stack gap="sm" align="flex-start">
      <Text>
        Bring a record into yours: the zip made by ‘Download my data’, here or in another copy of
        this app, or the FHIR file inside it. Photos, X-rays, medical and insurance records with
        their files, appointments and Dental AI results are added; what is already in your record is
        left as it is.
      </Text>
      <FileInput
        label="Import a record"
        description="A .zip or .json file, up to 64 MB"
        placeholder="Choose a file"
        accept=".zip,.json,application/zip,application/json,application/fhir+json"
        value={file}
        onChange={setFile}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
        w="100%"
        maw={420}
      />
      {start.error !== null && <Alert color="red">{errorMessage(start.error)}</Alert>}
      {current.error !== null && <Alert color="red">{errorMessage(current.error)}</Alert>}
      {current.data !== undefined && <ImportOutcome outcome={current.data} />}
      <Button
        disabled={file === null || running}
        loading={running}
        onClick={() => {
          if (file !== null) start.mutate(file);
        }}
      >
        Import this file
      </Button>
    </Stack>
  );
}

export function DataImportSection() {
  return (
    <Section title="Import a record">
      <DataImportForm />
    </Section>
  );
}
