import { useId, useState, type SyntheticEvent } from 'react';
import { Alert, Anchor, Button, Image, Input, Radio, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import {
  dentalAiImageKinds,
  dentalAiKindUnavailableMessage,
  dentalAiTypeLabels,
  dentalAiUnavailableMessage,
  dentalAiWrongKindMessage,
  planNames,
  planRank,
  type DentalAiRequest,
  type DentalAiStatus,
  type DentalAiType,
  type ImageKind,
} from '@dental/contracts';
import { paths } from '#web/config/paths';
import { imageUploadRules } from '#web/components/drop-zone/upload-rules';
import { FormActions } from '#web/components/form-actions';
import { useMessageModal } from '#web/components/message-modal';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { chooseImage } from '#web/lib/choose-image';
import { useLeave } from '#web/lib/use-leave';
import { readImageKind } from '#web/lib/read-image-kind';
import { ImageKindChoice } from './image-kind-choice';

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

/** Why the type cannot run on this kind of image, or null when it can: wisdom teeth need an X-ray,
 *  and a server may have a type's model for one kind only. */
function kindRefusal(
  types: DentalAiStatus['types'],
  type: DentalAiType,
  kind: ImageKind,
): string | null {
  if (!dentalAiImageKinds[type].includes(kind)) return dentalAiWrongKindMessage(type);
  const entry = types.find((candidate) => candidate.dental_ai === type);
  // A type with no model at all already says so on its own choice.
  if (entry?.available === true && !entry.image_kinds.includes(kind)) {
    return dentalAiKindUnavailableMessage(type, kind);
  }
  return null;
}

interface DetectionImage {
  dataUrl: string;
  /** What the browser did to fit it ('Resized to 2560 × 1920 …'); null when nothing. */
  note: string | null;
  /** What its pixels say it is; null when the browser could not read them. */
  readKind: ImageKind | null;
}

/** The Dental AI form (docs/product/dental-ai.md#form): Step 1 the type, Step 2 the image, its
 *  preview and its kind, then Start Detection, which stays disabled until a detection can actually
 *  run. */
export function DetectionForm({ status, onStart }: DetectionFormProps) {
  const pickerId = useId();
  const [chosenType, setChosenType] = useState<DentalAiType | null>(null);
  const [image, setImage] = useState<DetectionImage | null>(null);
  // Only a kind that differs from the read one: the API reads the pixels by the same rule.
  const [kindCorrection, setKindCorrection] = useState<ImageKind | null>(null);
  const popup = useMessageModal();
  const [detecting, setDetecting] = useState(false);
  const [runError, setRunError] = useState<string | null>(null);
  const leave = useLeave(paths.home);

  const type = chosenType ?? defaultType(status.types);
  const available = status.types.some((entry) => entry.dental_ai === type && entry.available);
  const { plan, used, allowed } = status.uses;
  const usesLeft = used < allowed;
  const kind = kindCorrection ?? image?.readKind ?? null;
  const refusal = kind === null ? null : kindRefusal(status.types, type, kind);

  const replaceImage = (next: DetectionImage | null) => {
    setImage(next);
    setKindCorrection(null);
  };

  const choose = async (file: File | undefined) => {
    setRunError(null);
    if (file === undefined) return;
    const chosen = await chooseImage(file);
    if ('error' in chosen) {
      replaceImage(null);
      popup.show({ title: imageDialogTitle, text: chosen.error });
    } else {
      replaceImage({
        dataUrl: chosen.dataUrl,
        note: chosen.note,
        readKind: await readImageKind(chosen.image),
      });
    }
  };

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (image === null) return;
    setRunError(null);
    setDetecting(true);
    onStart({
      dental_ai: type,
      image_url: image.dataUrl,
      ...(kindCorrection === null ? {} : { image_kind: kindCorrection }),
    }).catch((error: unknown) => {
      setDetecting(false);
      if (error instanceof ApiError && error.status === 413) {
        // The server's own 5 MB check: the image is not kept (docs/product/dental-ai.md#form).
        replaceImage(null);
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
          description={imageUploadRules.description}
          descriptionProps={{ id: `${pickerId}-description` }}
        >
          {image === null ? (
            <input
              id={pickerId}
              aria-describedby={`${pickerId}-description`}
              type="file"
              accept={imageUploadRules.accept.join(',')}
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
              <Image
                src={image.dataUrl}
                alt="Preview of the chosen image"
                mah={240}
                w="auto"
                maw="100%"
              />
              {image.note !== null && (
                <Text size="sm" role="status">
                  {image.note}
                </Text>
              )}
              <Button
                variant="default"
                size="xs"
                disabled={detecting}
                onClick={() => {
                  setRunError(null);
                  replaceImage(null);
                }}
              >
                Choose another image
              </Button>
            </Stack>
          )}
        </Input.Wrapper>
        {image !== null && (
          <ImageKindChoice
            readKind={image.readKind}
            value={kind}
            onChange={(chosenKind) => {
              setRunError(null);
              setKindCorrection(chosenKind === image.readKind ? null : chosenKind);
            }}
            refusal={refusal}
            disabled={detecting}
          />
        )}
        {runError !== null && (
          <Alert color="red" variant="outline" role="alert">
            {runError}
          </Alert>
        )}
        <FormActions
          submitLabel="Start Detection"
          pending={detecting}
          submitDisabled={image === null || !available || !usesLeft || refusal !== null}
          onCancel={leave}
        />
        {detecting && <Text role="status">Detecting…</Text>}
      </Stack>
      {popup.dialog}
    </form>
  );
}
