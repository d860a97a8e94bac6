import { useId, useState, type SyntheticEvent } from 'react';
import { Alert, Anchor, Button, Image, Input, Radio, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import {
  dentalAiTypeLabels,
  dentalAiUnavailableMessage,
  planNames,
  planRank,
  type DentalAiRequest,
  type DentalAiStatus,
  type DentalAiType,
} from '@dental/contracts';
import { paths } from '#web/app/paths';
import { FormActions } from '#web/components/form-actions';
import { useMessageModal } from '#web/components/message-modal';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { chooseImage, imageAccept } from '#web/lib/choose-image';
import { useLeave } from '#web/lib/use-leave';

export interface DetectionFormProps {
  status: DentalAiStatus;
  /** Runs the detection; a refusal is shown by the form, success is the caller's to show. */
  onStart: (request: DentalAiRequest) => Promise<unknown>;
}

const imageDialogTitle = 'Image not accepted';

/** The type this server can run that the form starts on: caries (docs/product/dental-ai.md#form)
 *  when it can. */
function defaultType(types: DentalAiStatus['types']): DentalAiType {
  return (
    types.find((type) => type.dental_ai === 'caries' && type.available) ??
    types.find((type) => type.available) ?? { dental_ai: 'caries' }
  ).dental_ai;
}

/** The Dental AI form (docs/product/dental-ai.md#form): Step 1 the type, Step 2 the image and its
 *  preview, then Start Detection, which stays disabled until a detection can actually run. */
export function DetectionForm({ status, onStart }: DetectionFormProps) {
  const pickerId = useId();
  const [chosenType, setChosenType] = useState<DentalAiType | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const popup = useMessageModal();
  const [detecting, setDetecting] = useState(false);
  const [runError, setRunError] = useState<string | null>(null);
  const leave = useLeave(paths.home);

  const type = chosenType ?? defaultType(status.types);
  const available = status.types.some((entry) => entry.dental_ai === type && entry.available);
  const { plan, used, allowed } = status.uses;
  const usesLeft = used < allowed;

  const choose = async (file: File | undefined) => {
    setRunError(null);
    if (file === undefined) return;
    const chosen = await chooseImage(file);
    if ('error' in chosen) {
      setImage(null);
      popup.show({ title: imageDialogTitle, text: chosen.error });
    } else {
      setImage(chosen.dataUrl);
    }
  };

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (image === null) return;
    setRunError(null);
    setDetecting(true);
    onStart({ dental_ai: type, image_url: image }).catch((error: unknown) => {
      setDetecting(false);
      if (error instanceof ApiError && error.status === 413) {
        // The server's own 5 MB check: the image is not kept (docs/product/dental-ai.md#form).
        setImage(null);
        popup.show({ title: imageDialogTitle, text: error.detail });
      } else {
        setRunError(errorMessage(error));
      }
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Text>
          {`${used} of ${allowed} detections used this year (${plan} plan)`}
          {!usesLeft && planRank(plan) < planNames.length - 1 && (
            <>
              {'. '}
              <Anchor component={Link} to={paths.membership} underline="always">
                Membership Upgrade
              </Anchor>{' '}
              for more detections.
            </>
          )}
        </Text>
        <Radio.Group
          label="Step 1: Choose the detection type"
          value={type}
          onChange={(value) => {
            setRunError(null);
            setChosenType(value);
          }}
        >
          <Stack gap="sm" mt="xs">
            {status.types.map(({ dental_ai, available: runs }) => (
              <Radio
                key={dental_ai}
                value={dental_ai}
                label={dentalAiTypeLabels[dental_ai].option}
                description={runs ? undefined : dentalAiUnavailableMessage(dental_ai)}
                disabled={!runs || detecting}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Input.Wrapper
          label="Step 2: Upload an image"
          // The label names the file picker; once the preview replaces it, nothing to point at.
          labelElement={image === null ? 'label' : 'div'}
          labelProps={image === null ? { htmlFor: pickerId } : {}}
          description="JPEG, PNG or WebP, up to 5 MB"
          descriptionProps={{ id: `${pickerId}-description` }}
        >
          {image === null ? (
            <input
              id={pickerId}
              aria-describedby={`${pickerId}-description`}
              type="file"
              accept={imageAccept}
              style={{ display: 'block', maxWidth: '100%', marginTop: 4 }}
              onChange={(event) => {
                const input = event.currentTarget;
                void choose(input.files?.[0]).finally(() => {
                  // Choosing the same file again after a refusal must fire a change again.
                  input.value = '';
                });
              }}
            />
          ) : (
            <Stack gap="xs" align="flex-start" mt={4}>
              <Image src={image} alt="Preview of the chosen image" mah={240} w="auto" maw="100%" />
              <Button
                variant="default"
                size="xs"
                disabled={detecting}
                onClick={() => {
                  setRunError(null);
                  setImage(null);
                }}
              >
                Choose another image
              </Button>
            </Stack>
          )}
        </Input.Wrapper>
        {runError !== null && (
          <Alert color="red" variant="outline" role="alert">
            {runError}
          </Alert>
        )}
        <FormActions
          submitLabel="Start Detection"
          pending={detecting}
          submitDisabled={image === null || !available || !usesLeft}
          onCancel={leave}
        />
        {detecting && <Text role="status">Detecting…</Text>}
      </Stack>
      {popup.dialog}
    </form>
  );
}
