import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useParams } from 'react-router';
import {
  reviewLabelMaxLength,
  reviewReportMaxLength,
  type ClinicReview,
  type ReviewFinding,
} from '@dental/contracts';
import { ReviewAnswer } from '#web/features/reviews/components/review-answer';
import { reviewDay } from '#web/features/reviews/components/review-dates';
import { ReviewShell } from '#web/features/reviews/components/review-shell';
import { useAnswerReview, useClinicReview } from '../api/clinic-api';
import { BoxDrawing, isBox, type Box, type ShownBox } from '../components/box-drawing';
import { Failure } from '../components/failure';
import { useStaff } from '../console-gate';
import { clinicPaths } from '../paths';
import reviewText from '#web/features/reviews/reviews.module.css';
import classes from './review-page.module.css';

type ReviewImage = ClinicReview['images'][number];
type Verdict = 'confirmed' | 'rejected';

/** A box the dentist drew, with what it shows. */
interface AddedBox {
  key: number;
  photo: string | null;
  box: Box;
  label: string;
}

const imageKey = (photo: string | null) => photo ?? 'dental-ai';
const verdictKey = (photo: string | null, aiBox: number) => `${imageKey(photo)}#${String(aiBox)}`;
const corners = ['Left (x1)', 'Top (y1)', 'Right (x2)', 'Bottom (y2)'] as const;
type Corners = [number | '', number | '', number | '', number | ''];
const noCorners: Corners = ['', '', '', ''];

function boxWords([x1, y1, x2, y2]: Box): string {
  return `from ${String(x1)}, ${String(y1)} to ${String(x2)}, ${String(y2)}`;
}

const imageNameOf = (images: readonly ReviewImage[], index: number) =>
  images.length === 1 ? 'The patient’s image' : `The patient’s image ${String(index + 1)}`;

/** The corner fields and the label of the next box: the keyboard's way to draw (WCAG 2.5.7),
 *  filled in too when a box is drawn on the image with a pointer. */
function NewBox({
  image,
  imageName,
  draft,
  onDraft,
  onAdd,
}: {
  image: ReviewImage;
  imageName: string;
  draft: Corners;
  onDraft: (draft: Corners) => void;
  onAdd: (box: Box, label: string) => void;
}) {
  const [label, setLabel] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <fieldset className={classes.fieldset}>
      <legend className={classes.legend}>Add a box on {imageName.toLowerCase()}</legend>
      <Stack gap="xs">
        <Text size="sm">
          Drag on the image, or tap one corner and then the opposite one, or type the corners in the
          image’s pixels ({image.width} × {image.height}).
        </Text>
        <div className={classes.corners}>
          {corners.map((name, index) => (
            <NumberInput
              key={name}
              label={name}
              min={0}
              max={index % 2 === 0 ? image.width : image.height}
              allowDecimal={false}
              allowNegative={false}
              value={draft[index]}
              onChange={(value) => {
                const next: Corners = [...draft];
                next[index] = typeof value === 'number' ? value : '';
                onDraft(next);
              }}
            />
          ))}
        </div>
        <TextInput
          label="What it shows"
          maxLength={reviewLabelMaxLength}
          value={label}
          onChange={(event) => {
            setLabel(event.currentTarget.value);
          }}
        />
        <Failure error={problem} />
        <Button
          variant="default"
          className={classes.add}
          onClick={() => {
            const [x1, y1, x2, y2] = draft;
            const box: Box | null =
              x1 === '' || y1 === '' || x2 === '' || y2 === '' ? null : [x1, y1, x2, y2];
            if (box === null || !isBox(box) || box[2] > image.width || box[3] > image.height) {
              setProblem(
                `Give all four corners inside the image (${String(image.width)} × ${String(image.height)} pixels), left before right and top before bottom.`,
              );
            } else if (label.trim() === '') {
              setProblem('Name what the box shows.');
            } else {
              onAdd(box, label.trim());
              onDraft(noCorners);
              setLabel('');
              setProblem(null);
            }
          }}
        >
          Add box
        </Button>
      </Stack>
    </fieldset>
  );
}

/** One image of the review: the AI's marks to confirm or reject, the dentist's boxes, and the
 *  way to draw another. */
function ImageFindings({
  image,
  imageName,
  verdicts,
  onVerdict,
  added,
  onAdd,
  onRemove,
}: {
  image: ReviewImage;
  imageName: string;
  verdicts: Readonly<Record<string, Verdict>>;
  onVerdict: (aiBox: number, verdict: Verdict) => void;
  added: readonly AddedBox[];
  onAdd: (box: Box, label: string) => void;
  onRemove: (key: number) => void;
}) {
  const [draft, setDraft] = useState<Corners>(noCorners);
  const [x1, y1, x2, y2] = draft;
  const draftBox: Box | null =
    x1 === '' || y1 === '' || x2 === '' || y2 === '' ? null : [x1, y1, x2, y2];
  const shown: ShownBox[] = [
    ...image.ai_boxes.map((box, index) => ({
      box: [box.xmin, box.ymin, box.xmax, box.ymax] as Box,
      tone: verdicts[verdictKey(image.photo, index)] ?? ('waiting' as const),
      name: `AI ${String(index + 1)}`,
    })),
    ...added.map((finding, index) => ({
      box: finding.box,
      tone: 'added' as const,
      name: `Yours ${String(index + 1)}`,
    })),
    ...(draftBox !== null && isBox(draftBox) ? [{ box: draftBox, tone: 'draft' as const }] : []),
  ];
  const judged = image.ai_boxes.filter(
    (_, index) => verdicts[verdictKey(image.photo, index)] !== undefined,
  ).length;
  return (
    <Paper withBorder p="sm" component="section" aria-label={imageName}>
      <Stack gap="md">
        <BoxDrawing
          src={image.image_url}
          alt={`${imageName}: ${String(image.ai_boxes.length)} marks of the Dental AI, ${String(judged)} judged; ${String(added.length)} boxes of yours`}
          width={image.width}
          height={image.height}
          boxes={shown}
          onDraw={(box) => {
            setDraft(box);
          }}
        />
        <Text size="sm">
          Yellow dashes: a mark of the Dental AI not judged yet; green: confirmed; grey dots:
          rejected; blue: your boxes; pink dashes: the box you are drawing.
        </Text>
        {image.ai_boxes.length > 0 && (
          <Stack gap="xs">
            <Title order={3} size="h4">
              Marks of the Dental AI
            </Title>
            {image.ai_boxes.map((box, index) => (
              <Radio.Group
                key={index}
                label={`AI ${String(index + 1)}: ${box.crop_prediction}, ${String(Math.round(box.confidence * 100))} % sure`}
                description={boxWords([box.xmin, box.ymin, box.xmax, box.ymax])}
                value={verdicts[verdictKey(image.photo, index)] ?? null}
                onChange={(value) => {
                  onVerdict(index, value);
                }}
              >
                <Group gap="md" mt={4}>
                  <Radio value="confirmed" label="Confirm" />
                  <Radio value="rejected" label="Reject" />
                </Group>
              </Radio.Group>
            ))}
          </Stack>
        )}
        {added.length > 0 && (
          <Stack gap="xs">
            <Title order={3} size="h4">
              Your boxes
            </Title>
            <ul
              className={reviewText.legend}
              aria-label={`Your boxes on ${imageName.toLowerCase()}`}
            >
              {added.map((finding, index) => (
                <li key={finding.key} className={classes.added}>
                  <span className={reviewText.text}>
                    Yours {index + 1}: <strong>{finding.label}</strong>, {boxWords(finding.box)}
                  </span>
                  <Button
                    size="compact-sm"
                    variant="default"
                    aria-label={`Remove yours ${String(index + 1)}: ${finding.label}`}
                    onClick={() => {
                      onRemove(finding.key);
                    }}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          </Stack>
        )}
        <NewBox
          image={image}
          imageName={imageName}
          draft={draft}
          onDraft={setDraft}
          onAdd={onAdd}
        />
      </Stack>
    </Paper>
  );
}

/** The practitioner's answer: a verdict on each AI mark, their own boxes, the report. */
function AnswerForm({ review, onSent }: { review: ClinicReview; onSent: () => void }) {
  const answer = useAnswerReview(review.id);
  const [verdicts, setVerdicts] = useState<Record<string, Verdict>>({});
  const [added, setAdded] = useState<AddedBox[]>([]);
  const [nextKey, setNextKey] = useState(0);
  const [report, setReport] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const marks = review.images.reduce((count, image) => count + image.ai_boxes.length, 0);
  const findings = (): ReviewFinding[] => [
    ...review.images.flatMap((image) =>
      image.ai_boxes.flatMap((box, index): ReviewFinding[] => {
        const verdict = verdicts[verdictKey(image.photo, index)];
        if (verdict === undefined) return [];
        const aiBox: Box = [box.xmin, box.ymin, box.xmax, box.ymax];
        return [
          { box: aiBox, label: box.crop_prediction, verdict, ai_box: index, photo: image.photo },
        ];
      }),
    ),
    ...added.map(({ box, label, photo }) => ({
      box,
      label,
      verdict: 'added' as const,
      ai_box: null,
      photo,
    })),
  ];

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const unjudged = marks - Object.keys(verdicts).length;
        if (unjudged > 0) {
          setProblem(
            `Confirm or reject each mark of the Dental AI: ${String(unjudged)} ${unjudged === 1 ? 'is' : 'are'} not judged yet.`,
          );
        } else if (report.trim() === '') {
          setProblem('Write the report.');
        } else {
          setProblem(null);
          answer.mutate({ report: report.trim(), findings: findings() }, { onSuccess: onSent });
        }
      }}
    >
      <Stack gap="lg">
        {review.images.map((image, index) => {
          const imageName = imageNameOf(review.images, index);
          return (
            <ImageFindings
              key={imageKey(image.photo)}
              image={image}
              imageName={imageName}
              verdicts={verdicts}
              onVerdict={(aiBox, verdict) => {
                setVerdicts((current) => ({
                  ...current,
                  [verdictKey(image.photo, aiBox)]: verdict,
                }));
              }}
              added={added.filter((finding) => finding.photo === image.photo)}
              onAdd={(box, label) => {
                setAdded((current) => [
                  ...current,
                  { key: nextKey, photo: image.photo, box, label },
                ]);
                setNextKey(nextKey + 1);
              }}
              onRemove={(key) => {
                setAdded((current) => current.filter((finding) => finding.key !== key));
              }}
            />
          );
        })}
        <Textarea
          label="Report for the patient"
          description="In plain words: the patient reads it as you write it, with the boxes you confirmed or drew."
          autosize
          minRows={5}
          maxLength={reviewReportMaxLength}
          value={report}
          onChange={(event) => {
            setReport(event.currentTarget.value);
          }}
        />
        <Failure error={problem ?? answer.error} />
        <Button type="submit" loading={answer.isPending} className={classes.add}>
          Send the answer
        </Button>
      </Stack>
    </form>
  );
}

/**
 * A review in the console (docs/clinic.md#dentist-reviews): the patient's question, then, while
 * it waits, the practitioner's answer form; once answered, what the patient sees.
 */
export default function ReviewPage() {
  const { reviewId = '' } = useParams();
  const staff = useStaff();
  const [sent, setSent] = useState(false);
  return (
    <ReviewShell review={useClinicReview(reviewId)} listPath={clinicPaths.reviews}>
      {(review) => (
        <>
          <Stack gap={4}>
            <Title order={1}>Dentist review</Title>
            <Text>
              From {review.patient.username}, asked {reviewDay(review.created_at)}
            </Text>
          </Stack>
          <Stack gap="xs" component="section" aria-labelledby="review-question">
            <Title order={2} size="h3" id="review-question">
              The patient’s question
            </Title>
            {/* Plain text: rendered as text, never as HTML. */}
            <Text className={reviewText.text}>{review.question}</Text>
          </Stack>
          {review.status === 'answered' ? (
            <Stack gap="md" component="section" aria-labelledby="review-answer">
              {sent && (
                <Alert color="green" variant="outline">
                  Your answer was sent. The patient is told by e-mail that a dentist answered, never
                  what you wrote.
                </Alert>
              )}
              <Title order={2} size="h3" id="review-answer">
                The answer, as the patient sees it
              </Title>
              <ReviewAnswer review={review} imageName="The patient’s image" />
            </Stack>
          ) : staff.role === 'practitioner' ? (
            <AnswerForm
              review={review}
              onSent={() => {
                setSent(true);
              }}
            />
          ) : (
            <Text>Only a practitioner of the practice answers a review.</Text>
          )}
        </>
      )}
    </ReviewShell>
  );
}
