import {
  Anchor,
  createTheme,
  InputWrapper,
  PasswordInput,
  TextInput,
  type CSSVariablesResolver,
} from '@mantine/core';

/** A calm clinical look: the banner's deep teal on white, a soft grey page, rounded cards.
 *  Filled shades are dark enough that white text on them passes WCAG AA (4.5:1). */
export const theme = createTheme({
  primaryColor: 'dental',
  primaryShade: 8,
  colors: {
    dental: [
      '#e6f4f3',
      '#c5e6e3',
      '#9fd5d0',
      '#74c2bb',
      '#4fb1a9',
      '#33a39a',
      '#1f968d',
      '#12827b',
      '#0f6f69',
      '#0d5f5a',
    ],
  },
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // A patient who asks the system for less motion gets cards, dialogs and menus that open at once
  // instead of sliding (WCAG 2.3.3); the browser journeys ask for it too (e2e-harness decision).
  respectReducedMotion: true,
  // Labels read exactly as the product pages name the fields ('Email', not 'Email *'); required fields
  // still carry the `required` attribute and say what is missing after a submit.
  components: {
    // Links in running text must not rely on colour alone (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    InputWrapper: InputWrapper.extend({ defaultProps: { withAsterisk: false } }),
    TextInput: TextInput.extend({ defaultProps: { withAsterisk: false } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { withAsterisk: false } }),
  },
});

/** Mantine's dimmed grey (gray.6), error red (red.6) and placeholder grey (gray.5, the text of a
 *  file input with no file chosen) fail AA on white; use darker shades. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': 'var(--mantine-color-dental-8)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});
