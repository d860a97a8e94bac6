import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { dentalAiTypeLabels, type MessageAttachment } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { photoLabel } from '#web/lib/photo-label';
import classes from '../messages.module.css';

/** A message's attachments as the member's own items, each linking to its own screen; one the
 *  member deleted since says so. */
export function AttachmentList({ attachments }: { attachments: MessageAttachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <Stack gap="xs" component="ul" className={classes.list} aria-label="Attached">
      {attachments.map((item) => (
        <li key={`${item.kind}:${item.id}`}>
          <Attachment item={item} />
        </li>
      ))}
    </Stack>
  );
}

function Attachment({ item }: { item: MessageAttachment }) {
  if (item.kind === 'photo') {
    if (item.photo === null) return <Text size="sm">A photo or X-ray you deleted</Text>;
    return (
      <Group gap="sm" wrap="nowrap">
        <img src={item.photo.thumbnail_link} alt="" className={classes.thumbnail} />
        <Anchor component={Link} to={paths.oralPhotoEdit(item.photo.id)} size="sm">
          {photoLabel(item.photo)}
        </Anchor>
      </Group>
    );
  }
  if (item.kind === 'record') {
    if (item.record === null) return <Text size="sm">A record you deleted</Text>;
    return (
      <Anchor component={Link} to={paths.medicalRecord(item.record.id)} size="sm">
        Record: {item.record.title} ({item.record.record_date})
      </Anchor>
    );
  }
  if (item.dental_ai === null) return <Text size="sm">A Dental AI result you deleted</Text>;
  return (
    <Group gap="sm" wrap="nowrap">
      <img src={item.dental_ai.image_url} alt="" className={classes.thumbnail} />
      <Anchor component={Link} to={paths.dentalAiResult(item.dental_ai.id)} size="sm">
        {dentalAiTypeLabels[item.dental_ai.dental_ai].resultTitle}
      </Anchor>
    </Group>
  );
}
