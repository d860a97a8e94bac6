import { useId, useState, type ReactNode } from 'react';
import { ActionIcon, Box, Group } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { FormActions } from '#web/components/form-actions';
import { Detail } from '#web/components/details-list';
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

/** 'Cancel' and 'Save' under an inline field, placed as on every other form. */
export function EditActions({ saving, onCancel }: EditActionsProps) {
  return (
    <Box mt="xs">
      <FormActions submitLabel="Save" size="sm" pending={saving} onCancel={onCancel} />
    </Box>
  );
}
