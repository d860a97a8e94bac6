import { Alert, Button, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { apiText, errorMessage } from '#web/lib/api-client';
import { downloadText } from '#web/lib/download';

/** 'Add to calendar': downloads the event as an `.ics` file (docs/decisions/calendar-export.md).
 *  The file needs the session, so it is fetched with it rather than opened as a plain link. */
export function AddToCalendarButton({ path, fileName }: { path: string; fileName: string }) {
  const fetchFile = useMutation({
    mutationFn: () => apiText(path),
    onSuccess: (text) => {
      downloadText(text, fileName, 'text/calendar');
    },
  });
  return (
    <Stack gap="xs">
      <Button
        variant="light"
        loading={fetchFile.isPending}
        onClick={() => {
          fetchFile.mutate();
        }}
        style={{ alignSelf: 'flex-start' }}
      >
        Add to calendar
      </Button>
      {fetchFile.isError && <Alert color="red">{errorMessage(fetchFile.error)}</Alert>}
    </Stack>
  );
}
