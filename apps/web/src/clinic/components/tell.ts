import { notifications } from '@mantine/notifications';

/** A short message at the top of the console, like the patient app's; its close button is named
 *  for screen readers (axe: button-name). */
export function tell(message: string, failed = false): void {
  notifications.show({
    color: failed ? 'red' : 'dental',
    message,
    closeButtonProps: { 'aria-label': 'Close' },
  });
}
