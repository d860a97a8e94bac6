import { Progress, Stack, Text } from '@mantine/core';

/** How much of an upload has been sent (0 to 1), as a bar and a percentage that is read out. */
export function UploadProgress({ progress }: { progress: number }) {
  const percent = Math.round(progress * 100);
  return (
    <Stack gap={4} w="100%">
      <Progress value={percent} aria-label="Upload progress" animated />
      <Text size="sm" role="status">
        Uploading… {percent}%
      </Text>
    </Stack>
  );
}
