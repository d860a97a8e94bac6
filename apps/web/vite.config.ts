import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Every built file lives under /static/ so the API's static plugin can serve them with long-lived
// caching, and lazily loaded route chunks come from /static/js/
// (docs/product/general.md#script-chunks).
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'static',
    // Images stay files rather than data: URLs, which a strict img-src policy would refuse.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Mantine in one chunk: /login otherwise fetches about fifteen small component chunks,
        // one round trip after another, for code it needs almost all of anyway.
        codeSplitting: {
          groups: [{ name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui)[\\/]/ }],
        },
        entryFileNames: 'static/js/[name]-[hash].js',
        chunkFileNames: 'static/js/[name]-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.css'))
            ? 'static/css/[name]-[hash][extname]'
            : 'static/media/[name]-[hash][extname]',
      },
    },
  },
  server: {
    // The legal texts are imported from content/ at the repository root.
    fs: { allow: ['../..'] },
    proxy: { '/api': 'http://localhost:3000' },
  },
});
