import { useState, type SyntheticEvent } from 'react';
import { ActionIcon, Alert, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useNavigate } from 'react-router';
import { maxFilesPerRequest, type NewMedicalFileRequest } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { savedEntryState } from '#web/components/saved-entry-range';
import { DropZone } from '#web/components/drop-zone/drop-zone';
import { UploadProgress } from '#web/components/drop-zone/upload-progress';
import { medicalFileUploadRules } from '#web/components/drop-zone/upload-rules';
import { FormActions } from '#web/components/form-actions';
import { UploadDisclaimerGate } from '#web/components/upload-disclaimer-modal';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { useLeave } from '#web/lib/use-leave';
import { useCreateMedicalRecord } from './api/create-medical-record';
import { chooseMedicalFile } from './components/choose-medical-file';
import {
  recordFieldErrors,
  RecordFields,
  type RecordFieldValues,
} from './components/record-fields';

/** 'Add New Records' (docs/product/records.md#medical-and-insurance-records): the disclaimer, once
 *  per member, then the form. */
export default function AddMedicalRecordPage() {
  useDocumentTitle('Add New Records');
  const navigate = useNavigate();
  const [fields, setFields] = useState<RecordFieldValues>({
    title: '',
    record_date: dayjs().format(dateFormat),
    note: '',
  });
  const [files, setFiles] = useState<NewMedicalFileRequest[]>([]);
  /** What the browser did to each chosen image to fit it, by position in `files`. */
  const [notes, setNotes] = useState<(string | null)[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [submitError, setSubmitError] = useState<ApiError | null>(null);
  // After the first Save the fields are checked as they are typed: each error goes once its field
  // is valid.
  const [checked, setChecked] = useState(false);
  const fieldErrors = checked ? recordFieldErrors(fields) : {};
  const create = useCreateMedicalRecord();
  const leave = useLeave(paths.medicalRecords);

  const addFiles = async (chosen: File[]) => {
    setFileError(null);
    const room = maxFilesPerRequest - files.length;
    if (chosen.length > room) {
      setFileError(`Add at most ${maxFilesPerRequest} files at a time.`);
      return;
    }
    const read = await Promise.all(chosen.map((file) => chooseMedicalFile(file)));
    const accepted: NewMedicalFileRequest[] = [];
    const acceptedNotes: (string | null)[] = [];
    for (const chosenFile of read) {
      if ('error' in chosenFile) {
        setFileError(chosenFile.error);
        return;
      }
      accepted.push(chosenFile.file);
      acceptedNotes.push(chosenFile.note);
    }
    setFiles((current) => [...current, ...accepted]);
    setNotes((current) => [...current, ...acceptedNotes]);
  };

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitError(null);
    setChecked(true);
    if (Object.keys(recordFieldErrors(fields)).length > 0) return;
    setProgress(0);
    create
      .mutateAsync({ body: { ...fields, medical_files: files }, onProgress: setProgress })
      .then(() => navigate(paths.medicalRecords, savedEntryState(fields.record_date)))
      .catch((error: unknown) => {
        setProgress(null);
        setSubmitError(error instanceof ApiError ? error : new ApiError(0, errorMessage(error)));
      });
  };

  return (
    <Stack gap="md">
      <Title order={1}>Add New Records</Title>
      <UploadDisclaimerGate
        onDecline={() => {
          void navigate(paths.medicalRecords);
        }}
      >
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <RecordFields
              value={fields}
              onChange={(changed) => {
                // The server's answer was about the fields as they were; drop it once they change.
                setSubmitError(null);
                setFields(changed);
              }}
              errors={{ ...submitError?.fieldErrors, ...fieldErrors }}
            />
            <DropZone
              label={`Files (at most ${String(maxFilesPerRequest)})`}
              rules={medicalFileUploadRules}
              multiple
              onFiles={(chosen) => {
                void addFiles(chosen);
              }}
            />
            {fileError !== null && (
              <Alert color="red" variant="outline" role="alert">
                {fileError}
              </Alert>
            )}
            {files.length > 0 && (
              <List listStyleType="none" spacing="xs" aria-label="Chosen files">
                {files.map((file, index) => (
                  <List.Item key={`${file.file_name}-${String(index)}`}>
                    <Group gap="xs" wrap="nowrap">
                      <div>
                        <Text style={{ overflowWrap: 'anywhere' }}>{file.file_name}</Text>
                        {notes[index] != null && <Text size="sm">{notes[index]}</Text>}
                      </div>
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Leave out ${file.file_name}`}
                        onClick={() => {
                          setFiles((current) => current.filter((_, at) => at !== index));
                          setNotes((current) => current.filter((_, at) => at !== index));
                        }}
                      >
                        <IconX size={16} aria-hidden />
                      </ActionIcon>
                    </Group>
                  </List.Item>
                ))}
              </List>
            )}
            {progress !== null && <UploadProgress progress={progress} />}
            {submitError !== null && (
              <Alert color="red" variant="outline" role="alert">
                {submitError.detail}
              </Alert>
            )}
            <FormActions submitLabel="Save" pending={progress !== null} onCancel={leave} />
          </Stack>
        </form>
      </UploadDisclaimerGate>
    </Stack>
  );
}
