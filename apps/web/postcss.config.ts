// Mantine's CSS helpers (rem(), light-dark(), mixins) and its breakpoints as $variables.
// Plugins are named, not imported: postcss-load-config resolves them (and loads this file
// through tsx).
export default {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '48em',
        'mantine-breakpoint-md': '62em',
        'mantine-breakpoint-lg': '75em',
        'mantine-breakpoint-xl': '88em',
      },
    },
  },
};
