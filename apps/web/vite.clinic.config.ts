import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The clinic console (docs/decisions/clinic-console.md): its own build from clinic.html into the
// same dist/, after the patient's (which empties it). Built apart so that nothing of the console
// and none of its imports can change how the patient's chunks are split: /login's scripts stay
// byte for byte what the patient's build makes of them. Shared code (components, the API client,
// the sign-in screen) is imported, and bundled into the console's own chunks, named clinic-….
export default defineConfig({
  plugins: [react()],
  // The patient's build has copied public/ already.
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'static',
    // Images stay files rather than data: URLs, which a strict img-src policy would refuse.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: { clinic: 'clinic.html' },
      output: {
        // Mantine in one chunk, as the patient's build has it (fewer round trips).
        codeSplitting: {
          groups: [
            { name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui)[\\/].*\.m?js$/ },
          ],
        },
        entryFileNames: 'static/js/clinic-[name]-[hash].js',
        chunkFileNames: 'static/js/clinic-[name]-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.css'))
            ? 'static/css/clinic-[name]-[hash][extname]'
            : 'static/media/[name]-[hash][extname]',
      },
    },
  },
});
