import { Group, Radio } from '@mantine/core';
import { imageKindLabels, imageKinds, type ImageKind } from '@dental/contracts';

export interface ImageKindChoiceProps {
  /** The kind read from the image in the browser; null when it could not be read. */
  readKind: ImageKind | null;
  /** The kind the detection will be run for: the member's correction, else the read kind. */
  value: ImageKind | null;
  onChange: (kind: ImageKind) => void;
  /** Why the chosen detection cannot run on this kind of image, shown with the choices. */
  refusal: string | null;
  disabled: boolean;
}

/** 'Kind of image' under the preview (docs/product/dental-ai.md#form): preselected with what the
 *  image's colours say, for the member to correct. */
export function ImageKindChoice({
  readKind,
  value,
  onChange,
  refusal,
  disabled,
}: ImageKindChoiceProps) {
  return (
    <Radio.Group
      label="Kind of image"
      description={
        readKind === null
          ? 'Choose one if you know it; otherwise it is read from the image’s colours when the detection runs.'
          : 'Read from its colours; change it if it is wrong.'
      }
      value={value}
      onChange={onChange}
      error={refusal}
      // The refusal appears when the type or the kind changes, away from the focus: announce it.
      errorProps={{ role: 'alert' }}
    >
      <Group gap="lg" mt="xs">
        {imageKinds.map((kind) => (
          <Radio key={kind} value={kind} label={imageKindLabels[kind]} disabled={disabled} />
        ))}
      </Group>
    </Radio.Group>
  );
}
