import { useRef, useState } from 'react';
import {
  Button,
  CloseButton,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { maxFilesPerRequest } from '@dental/contracts';
import { DropZone } from '#web/components/drop-zone/drop-zone';
import { imageUploadRules } from '#web/components/drop-zone/upload-rules';
import { FormActions } from '#web/components/form-actions';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { chooseImage } from '#web/lib/choose-image';
import { useDocumentTitle } from '#web/lib/document-title';
import { useConsultations, useSaveSummary } from '../api/clinic-api';
import type { ClinicConsultation } from '@dental/contracts';
import { consultationTime } from '../components/consultation-card';
import { clinicPaths } from '../paths';
import classes from './summary-page.module.css';
import { Failure } from '../components/failure';

/** A picture from the device's camera: the browser opens the camera where it can (`capture`),
 *  the file chooser elsewhere. */
function CameraButton({ disabled, onFile }: { disabled: boolean; onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconCamera size={18} aria-hidden />}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        Take a photo
      </Button>
      <input
        ref={input}
        className={classes.hiddenInput}
        type="file"
        accept={imageUploadRules.accept.join(',')}
        capture="environment"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file !== undefined) onFile(file);
        }}
      />
    </>
  );
}

function SummaryForm({ consultation }: { consultation: ClinicConsultation }) {
  const navigate = useNavigate();
  const save = useSaveSummary(consultation.id);
  const earlier = consultation.summary;
  const [condition, setCondition] = useState(earlier?.doctor_condition ?? '');
  const [suggestion, setSuggestion] = useState(earlier?.doctor_summary ?? '');
  const [returnTime, setReturnTime] = useState(earlier?.doctor_return ?? '');
  const [images, setImages] = useState<string[]>([]);
  const [imageError, setImageError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const back = () => void navigate(clinicPaths.history);

  // The same checks as a patient's uploads (type and size, before anything is sent).
  const add = async (files: File[]) => {
    setImageError(null);
    for (const file of files) {
      if (images.length >= maxFilesPerRequest) {
        setImageError(`Add at most ${String(maxFilesPerRequest)} images.`);
        return;
      }
      const chosen = await chooseImage(file);
      if ('error' in chosen) {
        setImageError(chosen.error);
        return;
      }
      setImages((current) => [...current, chosen.dataUrl].slice(0, maxFilesPerRequest));
    }
  };

  const submit = () => {
    const empty = [condition, suggestion, returnTime].some((text) => text.trim() === '');
    setMissing(empty);
    if (empty) return;
    save.mutate(
      {
        doctor_condition: condition.trim(),
        doctor_summary: suggestion.trim(),
        doctor_return: returnTime.trim(),
        images,
      },
      { onSuccess: back },
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <Textarea
          label="Condition"
          required
          autosize
          minRows={3}
          value={condition}
          onChange={(event) => {
            setCondition(event.currentTarget.value);
          }}
          error={missing && condition.trim() === '' ? 'Please fill in the condition.' : undefined}
        />
        <Textarea
          label="Suggestion"
          required
          autosize
          minRows={3}
          value={suggestion}
          onChange={(event) => {
            setSuggestion(event.currentTarget.value);
          }}
          error={missing && suggestion.trim() === '' ? 'Please fill in the suggestion.' : undefined}
        />
        <TextInput
          label="Recommended return visit time"
          required
          placeholder="For example: in 6 months"
          value={returnTime}
          onChange={(event) => {
            setReturnTime(event.currentTarget.value);
          }}
          error={
            missing && returnTime.trim() === ''
              ? 'Please fill in the recommended return visit time.'
              : undefined
          }
        />
        <DropZone
          label="Images"
          rules={imageUploadRules}
          multiple
          disabled={save.isPending}
          onFiles={(files) => void add(files)}
        />
        <Group>
          <CameraButton disabled={save.isPending} onFile={(file) => void add([file])} />
        </Group>
        {earlier !== null && earlier.images.length > 0 && (
          <Text size="sm">
            The summary has {String(earlier.images.length)} image(s); the images added here replace
            them.
          </Text>
        )}
        <Failure error={imageError} />
        {images.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" aria-label="Images to save">
            {images.map((image, index) => (
              <Paper key={image} withBorder p={4} pos="relative">
                <Image src={image} alt={`Image ${String(index + 1)}`} h={120} fit="contain" />
                <CloseButton
                  pos="absolute"
                  top={4}
                  right={4}
                  aria-label={`Remove image ${String(index + 1)}`}
                  onClick={() => {
                    setImages((current) => current.filter((_, at) => at !== index));
                  }}
                />
              </Paper>
            ))}
          </SimpleGrid>
        )}
        <Failure error={save.error} />
        <FormActions submitLabel="Save summary" pending={save.isPending} onCancel={back} />
      </Stack>
    </form>
  );
}

/** The doctor's summary of a past consultation: Condition, Suggestion, Recommended return visit
 *  time and images; the patient reads it in their reservation record at once. */
export default function SummaryPage() {
  useDocumentTitle('Doctor’s summary');
  const { consultationId } = useParams();
  const history = useConsultations('history');
  const consultation = history.data?.results.find((item) => item.id === consultationId);
  return (
    <Stack gap="md">
      <Title order={1}>Doctor’s summary</Title>
      {history.isError ? (
        <LoadFailed error={history.error} onRetry={history.refetch} />
      ) : history.data === undefined ? (
        <PageSpinner />
      ) : consultation === undefined ? (
        <Text>This consultation is not among your past consultations.</Text>
      ) : (
        <>
          <Text>
            {consultation.patient.username} · {consultationTime(consultation)}
          </Text>
          <SummaryForm consultation={consultation} />
        </>
      )}
    </Stack>
  );
}
