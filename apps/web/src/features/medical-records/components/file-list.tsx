import { useState } from 'react';
import { ActionIcon, Alert, List, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { MedicalFile } from '@dental/contracts';
import { ConfirmModal } from '#web/components/confirm-modal';
import { FileRow, viewerItemOf } from '#web/components/file-row';
import { ImageViewer } from '#web/components/image-viewer/image-viewer';
import { errorMessage } from '#web/lib/api-client';
import { useRemoveMedicalFile } from '../api/medical-files';
import { useReadOnlyRecord } from '#web/lib/viewed-record';

/** A record's attached files, each opened in the viewer by its name, with a download and a remove
 *  control (docs/product/records.md#medical-and-insurance-records). */
export function FileList({ recordId, files }: { recordId: string; files: MedicalFile[] }) {
  const [removing, setRemoving] = useState<MedicalFile | null>(null);
  const [viewed, setViewed] = useState<number | null>(null);
  const removeFile = useRemoveMedicalFile();
  const readOnly = useReadOnlyRecord();
  if (files.length === 0) return <Text c="dimmed">No files attached.</Text>;
  return (
    <>
      <List listStyleType="none" spacing="xs" aria-label="Attached files">
        {files.map((file, index) => (
          <List.Item key={file.id}>
            <FileRow
              file={file}
              onOpen={() => {
                setViewed(index);
              }}
            >
              {!readOnly && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${file.file_name}`}
                  onClick={() => {
                    removeFile.reset();
                    setRemoving(file);
                  }}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              )}
            </FileRow>
          </List.Item>
        ))}
      </List>
      <ImageViewer
        items={files.map(viewerItemOf)}
        index={viewed}
        onIndexChange={setViewed}
        onClose={() => {
          setViewed(null);
        }}
      />
      <ConfirmModal
        opened={removing !== null}
        onClose={() => {
          setRemoving(null);
        }}
        title="Remove file"
        confirmLabel="Remove"
        confirmColor="red"
        onConfirm={async () => {
          if (removing === null) return;
          await removeFile.mutateAsync({ recordId, fileId: removing.id });
          setRemoving(null);
        }}
      >
        <Text>Do you really want to remove {removing?.file_name}? This cannot be undone.</Text>
        {removeFile.isError && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(removeFile.error)}
          </Alert>
        )}
      </ConfirmModal>
    </>
  );
}
