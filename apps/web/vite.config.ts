import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type HtmlTagDescriptor, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';

const source = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');
const signInScreen = path.join(source, 'features/auth/login-page.tsx');

/**
 * Links the sign-in chunk and its stylesheet from the page, so that the browser fetches them
 * beside the entry instead of after the entry has run and the router has asked for them. Every
 * public screen and almost every signed-in one imports that chunk.
 */
function preloadSignInChunk(): Plugin {
  return {
    name: 'preload-sign-in-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunk = Object.values(bundle ?? {}).find(
          (file): file is Rolldown.OutputChunk => file.type === 'chunk' && file.name === 'sign-in',
        );
        if (chunk === undefined) throw new Error('The build has no sign-in chunk.');
        const link = (rel: string, file: string): HtmlTagDescriptor => ({
          tag: 'link',
          attrs: { rel, crossorigin: true, href: `/${file}` },
          injectTo: 'head',
        });
        return [
          link('modulepreload', chunk.fileName),
          ...[...(chunk.viteMetadata?.importedCss ?? [])].map((css) => link('stylesheet', css)),
        ];
      },
    },
  };
}

/**
 * The dev server answers the clinic console's page for /clinic and every address under it, as
 * the API's static server does for the build (docs/decisions/clinic-console.md); the console is
 * built on its own by vite.clinic.config.ts.
 */
function serveClinicConsole(): Plugin {
  return {
    name: 'serve-clinic-console',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const url = request.url ?? '';
        if (url === '/clinic' || url.startsWith('/clinic/') || url.startsWith('/clinic?')) {
          request.url = '/clinic.html';
        }
        next();
      });
    },
  };
}

// Every built file lives under /static/ so the API's static plugin can serve them with long-lived
// caching, and lazily loaded route chunks come from /static/js/
// (docs/product/general.md#script-chunks).
export default defineConfig({
  plugins: [react(), preloadSignInChunk(), serveClinicConsole()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'static',
    // Images stay files rather than data: URLs, which a strict img-src policy would refuse.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks (docs/decisions/first-paint-shell.md): left to itself, the bundler
        // splits every module that two chunks share into a chunk of its own, and /login fetched
        // about thirty files, one round trip after another. Groups are taken in order:
        codeSplitting: {
          groups: [
            // everything the entry needs stays in the entry;
            { name: 'index', tags: ['$initial'] },
            // the sign-in screen and all it needs besides, in one chunk that most screens load
            // too (forms, dialogs, the API calls);
            { name: 'sign-in', test: (id) => id === signInScreen },
            // the rest of Mantine in one chunk, for the signed-in screens.
            { name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui)[\\/].*\.m?js$/ },
          ],
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
