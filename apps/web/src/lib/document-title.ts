import { useDocumentTitle as useMantineDocumentTitle } from '@mantine/hooks';

export const productName = 'Dental Companion';

/** Names the browser tab after the screen, so history and screen readers tell pages apart. */
export function useDocumentTitle(screen: string): void {
  useMantineDocumentTitle(`${screen} · ${productName}`);
}
