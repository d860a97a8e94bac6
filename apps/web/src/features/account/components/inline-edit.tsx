import { useId, useState, type ReactNode } from 'react';
import { ActionIcon, Button, Group } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { Detail } from './details-list';
import classes from './inline-edit.module.css';

export interface InlineEditProps {
  label: string;
  /** The accessible name of the pencil button, e.g. 'Edit name'. */
  editLabel: string;
  value: ReactNode;
  /** The editing form; its field is labelled by the term `labelId` names (e.g. 'Name'), and
   *  `close` returns to the read-only value. */
  renderForm: (close: () => void, labelId: string) => ReactNode;
}

/** A value of the profile edited in place (docs/product/accounts.md#profile): a pencil button swaps
 *  it for a form. */
export function InlineEdit({ label, editLabel, value, renderForm }: InlineEditProps) {
  const [editing, setEditing] = useState(false);
  const labelId = useId();
  if (editing) {
    return (
      <Detail label={label} labelId={labelId}>
        <div className={classes.form}>
          {renderForm(() => {
            setEditing(false);
          }, labelId)}
        </div>
      </Detail>
    );
  }
  return (
    <Detail label={label}>
      <Group gap="xs" wrap="nowrap">
        <span className={classes.value}>{value}</span>
        <ActionIcon
          variant="subtle"
          aria-label={editLabel}
          onClick={() => {
            setEditing(true);
          }}
        >
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Group>
    </Detail>
  );
}

export interface EditActionsProps {
  saving: boolean;
  onCancel: () => void;
}

/** 'Save' and 'Cancel' under an inline field. */
export function EditActions({ saving, onCancel }: EditActionsProps) {
  return (
    <Group gap="xs" mt="xs">
      <Button type="submit" size="sm" loading={saving}>
        Save
      </Button>
      <Button variant="default" size="sm" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
    </Group>
  );
}
