import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { ConfirmRemoval } from '../components/confirm-removal';
import { formQuery, useAddQuestion, useRemoveQuestion, useUpdateQuestion } from '../api/clinic-api';
import type { ClinicFormQuestion } from '@dental/contracts';
import { Failure } from '../components/failure';

function QuestionRow({
  question,
  number,
  count,
  onRemove,
}: {
  question: ClinicFormQuestion;
  number: number;
  count: number;
  onRemove: () => void;
}) {
  const update = useUpdateQuestion();
  const [label, setLabel] = useState(question.label);
  const name = `Question ${String(number)}`;
  const move = (position: number) => {
    update.mutate({ questionId: question.id, position });
  };
  return (
    <Paper withBorder p="sm" component="li" aria-label={name}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({ questionId: question.id, label: label.trim() });
        }}
      >
        <Stack gap="xs">
          <Textarea
            label={name}
            autosize
            minRows={1}
            value={label}
            onChange={(event) => {
              setLabel(event.currentTarget.value);
            }}
          />
          <Group gap="xs" wrap="wrap">
            <Button
              type="submit"
              size="xs"
              loading={update.isPending}
              disabled={label.trim() === question.label}
            >
              Save wording
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={number === 1 || update.isPending}
              aria-label={`Move question ${String(number)} up`}
              onClick={() => {
                move(question.position - 1);
              }}
            >
              Move up
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={number === count || update.isPending}
              aria-label={`Move question ${String(number)} down`}
              onClick={() => {
                move(question.position + 1);
              }}
            >
              Move down
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={onRemove}
              aria-label={`Remove question ${String(number)}`}
            >
              Remove
            </Button>
          </Group>
          <Failure error={update.error} />
        </Stack>
      </form>
    </Paper>
  );
}

function AddQuestion() {
  const add = useAddQuestion();
  const [label, setLabel] = useState('');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate(
          { label: label.trim() },
          {
            onSuccess: () => {
              setLabel('');
            },
          },
        );
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="New question"
          value={label}
          onChange={(event) => {
            setLabel(event.currentTarget.value);
          }}
        />
        <Failure error={add.error} />
        <Button
          type="submit"
          loading={add.isPending}
          disabled={label.trim() === ''}
          w="fit-content"
        >
          Add question
        </Button>
      </Stack>
    </form>
  );
}

/** The consultation form's questions (admin): patients answer them when they book. */
export default function QuestionsPage() {
  useDocumentTitle('Consultation form');
  const form = useQuery(formQuery);
  const remove = useRemoveQuestion();
  const [removing, setRemoving] = useState<ClinicFormQuestion | null>(null);
  const questions = [...(form.data?.questions ?? [])].sort((a, b) => a.position - b.position);
  return (
    <Stack gap="lg">
      <Title order={1}>Consultation form</Title>
      <Text>Patients answer these questions when they book a consultation, in this order.</Text>
      {form.isError ? (
        <LoadFailed error={form.error} onRetry={form.refetch} />
      ) : form.data === undefined ? (
        <PageSpinner />
      ) : (
        <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
          {questions.map((question, index) => (
            <QuestionRow
              key={`${question.id}-${question.label}`}
              question={question}
              number={index + 1}
              count={questions.length}
              onRemove={() => {
                setRemoving(question);
              }}
            />
          ))}
        </Stack>
      )}
      <Paper withBorder p="md">
        <AddQuestion />
      </Paper>
      <ConfirmRemoval
        item={removing}
        title="Remove this question?"
        confirmLabel="Remove"
        onClose={() => {
          setRemoving(null);
        }}
        remove={(question) => remove.mutateAsync(question.id)}
      >
        “{removing?.label}” will no longer be asked. Answers already given are kept.
      </ConfirmRemoval>
    </Stack>
  );
}
