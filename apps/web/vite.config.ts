import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type HtmlTagDescriptor, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { paths } from './src/config/paths';

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

/**
 * The installable phone app (docs/decisions/installable-app.md): the manifest, linked from
 * index.html only (the clinic console, built afterwards by vite.clinic.config.ts, is not part of
 * it), and the service worker built from our own source into /sw.js with the list of the
 * patient app's files to keep. The page registers it itself (lib/app-update.ts).
 */
function installableApp(): Plugin[] {
  // The theme's filled teal (theme.ts, dental.8) and the page's grey (global.css, gray.0).
  const themeColour = '#0f6f69';
  const pageColour = '#f8f9fa';
  const shortcut = (name: string, url: string) => ({
    name,
    url,
    icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
  });
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/service-worker',
    filename: 'sw.ts',
    injectRegister: false,
    manifest: {
      id: '/',
      name: 'Dental Companion',
      short_name: 'Dental',
      description: 'Your personal dental-care companion.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: themeColour,
      background_color: pageColour,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        {
          src: '/icons/icon-512-maskable.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
      ],
      shortcuts: [
        shortcut('Add photo', paths.oralPhotoAdd),
        shortcut('Appointments', paths.appointments),
        shortcut('Dental AI', paths.dentalAi),
      ],
    },
    injectManifest: {
      // The shell and every script, style and image of the patient app's screens, so that any of
      // them opens without a connection. Left out, as they only serve work that needs the server
      // anyway: the HEIC decoder's worker (an iPhone photo being added) and the PDF reader
      // (pdf-pages and its worker, a record's PDF), together about 3.5 MB.
      globPatterns: ['index.html', 'favicon.svg', 'static/{js,css,media}/*'],
      globIgnores: ['static/js/pdf-pages-*'],
      // Their names change with their content: no revision to keep beside them.
      dontCacheBustURLsMatching: /^static\//,
    },
  });
}

// Every built file lives under /static/ so the API's static plugin can serve them with long-lived
// caching, and lazily loaded route chunks come from /static/js/
// (docs/product/general.md#script-chunks).
export default defineConfig({
  plugins: [react(), preloadSignInChunk(), serveClinicConsole(), installableApp()],
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
