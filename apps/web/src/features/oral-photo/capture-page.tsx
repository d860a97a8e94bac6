import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Alert, Anchor, Box, Button, Progress, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { Link, useNavigate } from 'react-router';
import { captureViews, captureViewWords } from '@dental/contracts';
import { photoRefusalMessages } from '@dental/contracts/photo-quality';
import { paths } from '#web/config/paths';
import { UploadDisclaimerGate } from '#web/components/upload-disclaimer-modal';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSaveOralPhoto } from './api/save-oral-photo';
import { CaptureOutline } from './components/capture-outline';
import { checkFrame, type CheckedFrame } from './components/frame-check';

type Camera = 'starting' | 'live' | 'unavailable';

/** Browsers leave mediaDevices out on pages that are not served securely, and some in-app
 *  browsers leave it out everywhere. */
const hasCamera = () => 'mediaDevices' in navigator;

/** The rear camera, live in the video element; 'unavailable' without mediaDevices, when
 *  permission is refused, or when the stream ends (docs/product/records.md#guided-capture). */
function useRearCamera(video: React.RefObject<HTMLVideoElement | null>): Camera {
  const [camera, setCamera] = useState<Camera>(() => (hasCamera() ? 'starting' : 'unavailable'));
  useEffect(() => {
    if (!hasCamera()) return;
    let stream: MediaStream | undefined;
    let stopped = false;
    const lost = () => {
      setCamera('unavailable');
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then(async (opened) => {
        stream = opened;
        if (stopped || video.current === null) {
          opened.getTracks().forEach((track) => {
            track.stop();
          });
          return;
        }
        opened.getVideoTracks().forEach((track) => {
          track.addEventListener('ended', lost);
        });
        video.current.srcObject = opened;
        await video.current.play();
        setCamera('live');
      })
      .catch(lost);
    return () => {
      stopped = true;
      stream?.getTracks().forEach((track) => {
        track.removeEventListener('ended', lost);
        track.stop();
      });
    };
  }, [video]);
  return camera;
}

/** A still photo from the phone's camera app (or a file), decoded for the checks. */
async function checkStill(file: File): Promise<CheckedFrame> {
  const bitmap = await createImageBitmap(file);
  try {
    return checkFrame(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

/**
 * 'Take photos' (docs/product/records.md#guided-capture): five standard views one after another,
 * each with its outline and hint; a photo that is blurred, badly lit or too far away is refused
 * with the reason, and each accepted one is stored at once as a photo of today in one set.
 */
export default function CapturePage() {
  useDocumentTitle('Take photos');
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.oralPhotos}>
        X-rays and Photos Storage
      </Anchor>
      <Title order={1}>Take photos</Title>
      <UploadDisclaimerGate
        onDecline={() => {
          void navigate(paths.oralPhotos);
        }}
      >
        <GuidedCapture />
      </UploadDisclaimerGate>
    </Stack>
  );
}

function GuidedCapture() {
  const navigate = useNavigate();
  const video = useRef<HTMLVideoElement>(null);
  const camera = useRearCamera(video);
  const save = useSaveOralPhoto();
  const [setId] = useState(() => crypto.randomUUID());
  const [step, setStep] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [frameShape, setFrameShape] = useState<string | undefined>(undefined);
  const view = captureViews[step] ?? 'front';
  const words = captureViewWords[view];

  const accept = async (checked: CheckedFrame) => {
    if (checked.refusal !== null || checked.imageLink === null) {
      setNotice(checked.refusal === null ? null : photoRefusalMessages[checked.refusal]);
      return;
    }
    setNotice(null);
    try {
      await save.mutateAsync({
        body: {
          shoot_date: dayjs().format(dateFormat),
          photo_type: 'Photo',
          image_link: checked.imageLink,
          capture_set_id: setId,
          capture_view: view,
        },
        onProgress: () => undefined,
      });
    } catch (error) {
      // 409: an earlier try stored this view and only its answer was lost; the set goes on.
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
    if (step + 1 < captureViews.length) {
      setStep(step + 1);
    } else {
      await navigate(paths.oralPhotoSet(setId));
    }
  };

  const run = (work: () => Promise<CheckedFrame>) => {
    setChecking(true);
    work()
      .then(accept)
      .catch((error: unknown) => {
        setNotice(errorMessage(error));
      })
      .finally(() => {
        setChecking(false);
      });
  };

  const takeFromVideo = () => {
    const frame = video.current;
    if (frame === null || frame.videoWidth === 0) return;
    run(() => Promise.resolve(checkFrame(frame, frame.videoWidth, frame.videoHeight)));
  };

  const takeStill = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    // The same file may be chosen again after a refusal.
    event.currentTarget.value = '';
    if (file !== undefined) run(() => checkStill(file));
  };

  const titleId = 'capture-view-title';
  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Progress
        value={(step / captureViews.length) * 100}
        aria-label={`${String(step)} of ${String(captureViews.length)} photos taken`}
      />
      <Title order={2} size="h3" id={titleId}>
        {`Photo ${String(step + 1)} of ${String(captureViews.length)}: ${words.name}`}
      </Title>
      <Text>{words.hint}</Text>
      {camera !== 'unavailable' && (
        <Box pos="relative" maw={640} style={{ aspectRatio: frameShape ?? '4 / 3' }} bg="dark.7">
          {/* The live view is not a recording anyone listens to; there is no audio track. */}
          <video
            ref={video}
            muted
            playsInline
            aria-label={`Camera view: ${words.name}`}
            onLoadedMetadata={(event) => {
              const { videoWidth, videoHeight } = event.currentTarget;
              setFrameShape(`${String(videoWidth)} / ${String(videoHeight)}`);
            }}
            style={{ display: 'block', width: '100%', height: '100%', objectFit: 'fill' }}
          />
          <CaptureOutline view={view} />
        </Box>
      )}
      {notice !== null && (
        <Alert color="red" variant="outline" role="alert">
          {notice}
        </Alert>
      )}
      {camera === 'unavailable' ? (
        <>
          <Text size="sm" c="dimmed">
            The camera cannot be shown here. Take the photo with your phone’s camera instead: fit
            your teeth in the middle of the picture.
          </Text>
          <Button component="label" loading={checking || save.isPending} w="fit-content">
            {`Take photo: ${words.name}`}
            <input type="file" accept="image/*" capture="environment" hidden onChange={takeStill} />
          </Button>
        </>
      ) : (
        <Button
          onClick={takeFromVideo}
          disabled={camera !== 'live'}
          loading={checking || save.isPending}
          w="fit-content"
        >
          Take photo
        </Button>
      )}
    </Stack>
  );
}
