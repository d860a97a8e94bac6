import { useState, type SyntheticEvent } from 'react';
import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import type { MedicalRecord } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DeleteButton } from '#web/components/delete-button';
import { DropZone } from '#web/components/drop-zone/drop-zone';
import { FormActions } from '#web/components/form-actions';
import { medicalFileUploadRules } from '#web/components/drop-zone/upload-rules';
import { PageSpinner } from '#web/components/page-spinner';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useLeave } from '#web/lib/use-leave';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { useDeleteMedicalRecord } from './api/delete-medical-record';
import { useMedicalRecord } from './api/get-medical-record';
import { useAddMedicalFile } from './api/medical-files';
import { useUpdateMedicalRecord } from './api/update-medical-record';
import { chooseMedicalFile } from './components/choose-medical-file';
import { FileList } from './components/file-list';
import { RecordBody } from './components/record-body';
import { RecordFields, type RecordFieldValues } from './components/record-fields';

function RecordEditor({ record }: { record: MedicalRecord }) {
  const navigate = useNavigate();
  const [fields, setFields] = useState<RecordFieldValues>({
    title: record.title,
    record_date: record.record_date,
    note: record.note,
  });
  const [saved, setSaved] = useState(false);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  /** What the browser did to the last uploaded image to fit it, named with the file. */
  const [fileNote, setFileNote] = useState<string | null>(null);
  const update = useUpdateMedicalRecord(record.id);
  const addFile = useAddMedicalFile(record.id);
  const deleteRecord = useDeleteMedicalRecord();
  const leave = useLeave(paths.medicalRecords);
  const fieldErrors = update.error instanceof ApiError ? update.error.fieldErrors : undefined;

  const save = (event: SyntheticEvent) => {
    event.preventDefault();
    setSaved(false);
    update.mutate(fields, {
      onSuccess: () => {
        setSaved(true);
      },
    });
  };

  const upload = async (file: File | undefined) => {
    setFileError(null);
    setFileNote(null);
    if (file === undefined) return;
    const chosen = await chooseMedicalFile(file);
    if ('error' in chosen) {
      setFileError(chosen.error);
      return;
    }
    setUploadProgress(0);
    try {
      await addFile.mutateAsync({ body: chosen.file, onProgress: setUploadProgress });
      if (chosen.note !== null) setFileNote(`${chosen.file.file_name}: ${chosen.note}`);
    } catch (error) {
      setFileError(errorMessage(error));
    } finally {
      setUploadProgress(null);
    }
  };

  return (
    <Stack gap="lg">
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          <RecordFields value={fields} onChange={setFields} errors={fieldErrors} />
          {update.isError && (
            <Alert color="red" variant="outline" role="alert">
              {errorMessage(update.error)}
            </Alert>
          )}
          {saved && !update.isPending && (
            <Text role="status" c="teal">
              Saved.
            </Text>
          )}
          {/* SPEC's pencil stays, now beside the word: an icon alone was not understood
              (docs/decisions/form-actions.md). */}
          <FormActions
            submitLabel="Save"
            submitIcon={<IconPencil size={18} aria-hidden />}
            pending={update.isPending}
            onCancel={leave}
            cancelLabel="Back"
          />
        </Stack>
      </form>

      <Stack gap="sm">
        <Title order={2} size="h3">
          Files
        </Title>
        <FileList recordId={record.id} files={record.medical_files} />
        <DropZone
          label="Upload a file"
          rules={medicalFileUploadRules}
          disabled={uploadProgress !== null}
          progress={uploadProgress}
          onFiles={(files) => {
            void upload(files[0]);
          }}
        />
        {fileNote !== null && (
          <Text size="sm" role="status">
            {fileNote}
          </Text>
        )}
        {fileError !== null && (
          <Alert color="red" variant="outline" role="alert">
            {fileError}
          </Alert>
        )}
      </Stack>

      <Group>
        <DeleteButton
          deletion={deleteRecord}
          id={record.id}
          title="Delete record"
          question="Do you really want to delete this record and its files? This cannot be undone."
          size="sm"
          variant="filled"
          onDeleted={async () => {
            await navigate(paths.medicalRecords);
          }}
        />
      </Group>
    </Stack>
  );
}

/** Another member's record, viewed read-only (docs/product/proxy-access.md): no field to change,
 *  no upload, no delete. */
function RecordView({ record }: { record: MedicalRecord }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
        {record.title}
      </Title>
      <RecordBody record={record} filesHeadingSize="h4" />
    </Stack>
  );
}

/** The record detail and edit screen (docs/product/records.md#record-detail): fields with a labelled
 *  Save (pencil) button and Back, the file list with download and remove, an upload, and delete. */
export default function MedicalRecordDetailPage() {
  useDocumentTitle('Medical Record');
  const { medicalRecordId = '' } = useParams();
  const record = useMedicalRecord(medicalRecordId);
  const readOnly = useReadOnlyRecord();
  return (
    <Stack gap="md">
      <Title order={1}>Medical Record</Title>
      {record.isPending && <PageSpinner />}
      {record.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(record.error)}
        </Alert>
      )}
      {record.data &&
        (readOnly ? (
          <RecordView record={record.data} />
        ) : (
          <RecordEditor key={record.data.id} record={record.data} />
        ))}
    </Stack>
  );
}
