// The two build outputs of a deployment and what each is built from. `npm run build` builds both;
// `npm start` (scripts/start.mjs) builds only the ones that are missing or older than a source
// (docs/decisions/start-and-runtime.md).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip as gzipCallback } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);
const apiSrc = at('apps/api/src');
const apiDist = at('apps/api/dist');
const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/** Every input both builds share: the shared schemas, the installed versions, this script. */
const sharedSources = [
  at('packages/contracts/src'),
  at('packages/contracts/package.json'),
  at('package-lock.json'),
  fileURLToPath(import.meta.url),
];

/** The API as plain JavaScript: no tsx (and no TypeScript compiler) in the running server. */
async function buildApi() {
  // Loaded here so that a start with nothing to build never loads the bundler.
  const esbuild = await import('esbuild');
  rmSync(apiDist, { recursive: true, force: true });
  try {
    await esbuild.build({
      entryPoints: {
        server: path.join(apiSrc, 'server.ts'),
        worker: path.join(apiSrc, 'worker.ts'),
        // The DICOM reader's worker thread, found beside the bundle through import.meta.url.
        'dicom-worker': path.join(apiSrc, 'modules/uploads/dicom-worker.ts'),
      },
      outdir: apiDist,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      sourcemap: true,
      logLevel: 'warning',
      // Beside the entry points: the bundled code finds files relative to import.meta.url.
      chunkNames: '[name]-[hash]',
      plugins: [
        {
          // Installed packages stay in node_modules (native addons, PGlite's WebAssembly); only our
          // own TypeScript, @dental/contracts included (it is published as source) and the package's `#api/…`
          // imports, is bundled.
          name: 'external-packages',
          setup(build) {
            build.onResolve({ filter: /^[^./#]/ }, (args) =>
              args.path.startsWith('@dental/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
  } finally {
    // Its service process would otherwise live on beside the server started after the build.
    await esbuild.stop();
  }
  // What the code finds next to itself (import.meta.url): the SQL migrations and the inference
  // worker thread's script.
  cpSync(path.join(apiSrc, 'db/migrations'), path.join(apiDist, 'migrations'), {
    recursive: true,
  });
  cpSync(
    path.join(apiSrc, 'adapters/detector/inference-worker.mjs'),
    path.join(apiDist, 'inference-worker.mjs'),
  );
}

/** Text files worth compressing; images and fonts are compressed already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the web build, once at
 * build time at the highest levels, for the static server to send as they are (`preCompressed`):
 * no compression work per request, and smaller files than on-the-fly compression would give.
 */
async function precompress(folder) {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && compressible.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const source = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(source, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.byteLength,
          },
        }),
        gzip(source, { level: zlibConstants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}

async function buildWeb() {
  const result = spawnSync(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    ['run', 'build', '-w', '@dental/web'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`vite build ended with ${result.status}.`);
  await precompress(at('apps/web/dist'));
}

export const targets = [
  {
    name: 'API',
    output: path.join(apiDist, 'server.js'),
    sources: [apiSrc, at('apps/api/package.json'), ...sharedSources],
    build: buildApi,
  },
  {
    name: 'web app',
    output: at('apps/web/dist/index.html'),
    sources: [
      at('apps/web/src'),
      at('apps/web/public'),
      at('apps/web/index.html'),
      at('apps/web/clinic.html'),
      at('apps/web/vite.config.ts'),
      at('apps/web/vite.clinic.config.ts'),
      at('apps/web/postcss.config.ts'),
      at('apps/web/package.json'),
      // The legal texts are imported from content/ at build time.
      at('content'),
      ...sharedSources,
    ],
    build: buildWeb,
  },
];

/** The newest modification time under a file or folder; tests do not change a build. */
function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(file) ? 0 : stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(file)) {
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** Why a target needs building, or undefined when its output is newer than every source. */
export function staleReason(target) {
  if (!existsSync(target.output)) return `${path.relative(root, target.output)} is missing`;
  const built = statSync(target.output).mtimeMs;
  const changed = target.sources.find((source) => newestMtime(source) > built);
  return changed === undefined ? undefined : `${path.relative(root, changed)} changed`;
}

/**
 * Builds the given targets in order, printing what and why. A failed build ends the process: the
 * bundler or Vite has already printed the errors.
 */
export async function build(list, reasons = new Map()) {
  for (const target of list) {
    const reason = reasons.get(target);
    console.log(`Building the ${target.name}${reason === undefined ? '' : ` (${reason})`}…`);
    try {
      await target.build();
    } catch {
      console.error(`The ${target.name} did not build; see the errors above.`);
      process.exit(1);
    }
  }
}

/** Builds every target that is missing or older than its sources (`npm start`, the e2e server). */
export async function buildStale() {
  const reasons = new Map();
  for (const target of targets) {
    const reason = staleReason(target);
    if (reason !== undefined) reasons.set(target, reason);
  }
  await build([...reasons.keys()], reasons);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build(targets);
}
