import type { ReactNode } from 'react';
import { ActionIcon, Anchor, Group } from '@mantine/core';
import { IconDownload, IconFileTypePdf, IconPhoto } from '@tabler/icons-react';
import type { MedicalFile } from '@dental/contracts';
import type { ViewerItem } from './image-viewer/image-viewer';

const isPdf = (file: MedicalFile) => file.content_type === 'application/pdf';

/** A record file as the viewer shows it. */
export const viewerItemOf = (file: MedicalFile): ViewerItem => ({
  kind: isPdf(file) ? 'pdf' : 'image',
  src: file.file_link,
  title: file.file_name,
});

/**
 * One attached file: its kind's icon, its name (opens it in the viewer) and a download icon,
 * then any further controls the screen adds (the owner's remove).
 */
export function FileRow({
  file,
  onOpen,
  children,
}: {
  file: MedicalFile;
  onOpen: () => void;
  children?: ReactNode;
}) {
  return (
    <Group gap="xs" wrap="nowrap">
      {isPdf(file) ? (
        <IconFileTypePdf size={18} aria-hidden />
      ) : (
        <IconPhoto size={18} aria-hidden />
      )}
      <Anchor
        component="button"
        type="button"
        style={{ overflowWrap: 'anywhere', textAlign: 'start' }}
        aria-label={`Open ${file.file_name}`}
        onClick={onOpen}
      >
        {file.file_name}
      </Anchor>
      <ActionIcon
        component="a"
        href={file.file_link}
        download={file.file_name}
        variant="subtle"
        aria-label={`Download ${file.file_name}`}
      >
        <IconDownload size={18} aria-hidden />
      </ActionIcon>
      {children}
    </Group>
  );
}
