import { useId, useRef, useState, type DragEvent } from 'react';
import { Button, Input, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { UploadProgress } from './upload-progress';
import type { UploadRules } from './upload-rules';
import classes from './drop-zone.module.css';

export interface DropZoneProps {
  label: string;
  rules: UploadRules;
  multiple?: boolean;
  disabled?: boolean;
  /** Share of the upload sent, 0 to 1, while one is under way; null otherwise. */
  progress?: number | null;
  onFiles: (files: File[]) => void;
}

/**
 * Every file input of the app (docs/decisions/drop-zone.md): a dashed area that takes dropped
 * files, a 'Choose file' button for the browser's chooser, the accepted types and size limits,
 * and the upload's progress. The checks themselves stay with the form that reads the files.
 */
export function DropZone({
  label,
  rules,
  multiple = false,
  disabled = false,
  progress = null,
  onFiles,
}: DropZoneProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const dragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) setDragging(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };

  return (
    <Input.Wrapper label={label} labelElement="label" labelProps={{ htmlFor: inputId }}>
      <Stack
        gap="xs"
        align="center"
        mt={4}
        className={classes.zone}
        data-dragging={dragging || undefined}
        data-disabled={disabled || undefined}
        data-testid="drop-zone"
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={() => {
          setDragging(false);
        }}
        onDrop={drop}
      >
        <IconUpload size={28} aria-hidden />
        <Text>Drag and drop {multiple ? 'files' : 'a file'} here, or</Text>
        <Button
          variant="default"
          disabled={disabled}
          onClick={() => input.current?.click()}
          aria-describedby={`${inputId}-rules`}
        >
          Choose file
        </Button>
        <Text size="sm" c="dimmed" id={`${inputId}-rules`}>
          {rules.description}
        </Text>
        <input
          ref={input}
          id={inputId}
          className={classes.input}
          type="file"
          tabIndex={-1}
          multiple={multiple}
          accept={rules.accept.join(',')}
          disabled={disabled}
          onChange={(event) => {
            const chosen = event.currentTarget;
            onFiles(Array.from(chosen.files ?? []));
            // The same file chosen again after a refusal is a new choice.
            chosen.value = '';
          }}
        />
        {progress !== null && <UploadProgress progress={progress} />}
      </Stack>
    </Input.Wrapper>
  );
}
