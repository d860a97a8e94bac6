// What a patient's browser pays for the sign-in screen: /login served by the real server from the
// production build, loaded cold (a new browser context each time) in Chromium on a desktop and on
// an emulated phone (4× CPU slowdown, 150 ms round trip, 1.6 Mbps down, by CDP as Lighthouse's
// mobile profile does), once as served (Brotli copies from the build) and once with compression
// refused by the browser, as the server answered before it sent them. Then Lighthouse's own mobile
// performance score of the same page, by its default method (simulated slow 4G and 4× CPU), and
// beside it the install criteria Lighthouse 12 no longer reports (its PWA category is gone), asked
// of Chrome through DevTools (docs/decisions/installable-app.md).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import lighthouse from 'lighthouse';
import { build, staleReason, targets } from '../scripts/build.mjs';
import { freePort } from '../apps/api/test/support/free-port';
import { printIssueFigures } from './issue-figures';
import { median } from './median';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Cold loads per profile and encoding (BENCH_LOGIN_RUNS); medians are printed. */
const runs = Math.min(20, Math.max(1, Number(process.env.BENCH_LOGIN_RUNS ?? 5)));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

interface Profile {
  name: string;
  viewport: { width: number; height: number };
  cpuSlowdown: number;
  network?: { latencyMs: number; downloadBitsPerSecond: number; uploadBitsPerSecond: number };
}

const profiles: Profile[] = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, cpuSlowdown: 1 },
  {
    name: 'phone',
    viewport: { width: 360, height: 740 },
    cpuSlowdown: 4,
    network: { latencyMs: 150, downloadBitsPerSecond: 1.6e6, uploadBitsPerSecond: 750e3 },
  },
];

interface Load {
  requests: number;
  transferredKb: number;
  javascriptKb: number;
  fcpMs: number;
  lcpMs: number;
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(root, 'apps/api/dist/server.js')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const running = / is running at (http:\/\/\S+?)\/?\s/.exec(output);
      if (running?.[1] !== undefined) resolve(running[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`The server exited with ${String(code)} before listening:\n${output}`));
    });
  });
  return { child, url };
}

async function loadOnce(browser: Browser, url: string, profile: Profile, compressed: boolean) {
  const context = await browser.newContext({ viewport: profile.viewport });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (!compressed) {
      await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    }
    if (profile.cpuSlowdown > 1) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    }
    if (profile.network !== undefined) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: profile.network.latencyMs,
        downloadThroughput: profile.network.downloadBitsPerSecond / 8,
        uploadThroughput: profile.network.uploadBitsPerSecond / 8,
      });
    }
    const mimeTypes = new Map<string, string>();
    const load: Load = { requests: 0, transferredKb: 0, javascriptKb: 0, fcpMs: 0, lcpMs: 0 };
    const urls = new Map<string, string>();
    cdp.on('Network.responseReceived', (event) => {
      urls.set(event.requestId, event.response.url);
      mimeTypes.set(event.requestId, event.response.mimeType);
    });
    cdp.on('Network.loadingFinished', (event) => {
      if (process.env.BENCH_LOGIN_LIST !== undefined) {
        console.log(
          `  ${(event.encodedDataLength / 1024).toFixed(1).padStart(7)} kB ${urls.get(event.requestId) ?? ''}`,
        );
      }
      load.requests += 1;
      load.transferredKb += event.encodedDataLength / 1024;
      if (mimeTypes.get(event.requestId)?.includes('javascript') === true) {
        load.javascriptKb += event.encodedDataLength / 1024;
      }
    });
    await page.goto(`${url}/login`);
    // Loaded when the form can be used and nothing more is fetched.
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    const paints = await page.evaluate(
      () =>
        new Promise<{ fcp: number; lcp: number }>((resolve) => {
          let lcp = Number.NaN;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) lcp = entry.startTime;
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          setTimeout(() => {
            const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
            resolve({ fcp: fcp ?? Number.NaN, lcp });
          }, 100);
        }),
    );
    return { ...load, fcpMs: paints.fcp, lcpMs: paints.lcp };
  } finally {
    await context.close();
  }
}

/** Lighthouse's mobile performance score of /login and the figures it is made of, as medians. */
async function lighthouseScores(url: string): Promise<void> {
  // The browser's DevTools endpoint, which Lighthouse drives.
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--remote-debugging-port=${String(port)}`],
  });
  try {
    const scores: Record<
      'score' | 'fcp' | 'lcp' | 'tbt' | 'speedIndex' | 'benchmarkIndex',
      number
    >[] = [];
    for (let run = 0; run < runs; run += 1) {
      const result = await lighthouse(`${url}/login`, {
        port,
        onlyCategories: ['performance'],
        output: 'json',
        logLevel: 'error',
      });
      if (result === undefined) throw new Error('Lighthouse returned no result.');
      const { audits, categories } = result.lhr;
      const figure = (audit: string) => audits[audit]?.numericValue ?? Number.NaN;
      scores.push({
        score: (categories.performance?.score ?? Number.NaN) * 100,
        fcp: figure('first-contentful-paint'),
        lcp: figure('largest-contentful-paint'),
        tbt: figure('total-blocking-time'),
        speedIndex: figure('speed-index'),
        benchmarkIndex: result.lhr.environment.benchmarkIndex,
      });
    }
    const of = (pick: (score: (typeof scores)[number]) => number) =>
      median(scores.map(pick)).toFixed(0);
    console.log(
      `Lighthouse ${String(runs)}× mobile (simulated), /login: performance ${of((s) => s.score)}, ` +
        `FCP ${of((s) => s.fcp)} ms, LCP ${of((s) => s.lcp)} ms, ` +
        `total blocking time ${of((s) => s.tbt)} ms, speed index ${of((s) => s.speedIndex)} ms; ` +
        // Lighthouse slows the CPU 4× on top of this machine's own speed, so its score falls on a
        // slow machine: its benchmark index says how fast this one was in these runs.
        `benchmark index ${of((s) => s.benchmarkIndex)}`,
    );
  } finally {
    await browser.close();
  }
}

/**
 * What Chrome requires before it offers to install the app, asked of it through DevTools: the
 * manifest parses without errors, Chrome lists no installability error, and the start URL loads
 * with the network off once the service worker is active (200, the app's shell). A browser
 * profile of its own: Chrome offers no install in a private context.
 */
async function installCriteria(url: string): Promise<void> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'dental-login-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${url}/login`);
    // Installed, its files kept, and in control of the page (the first worker claims it); a
    // build without a worker fails here rather than waiting for ever.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 60_000,
    });
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string }[];
      data?: string;
    };
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    const startUrl = new URL(
      (JSON.parse(manifest.data ?? '{}') as { start_url?: string }).start_url ?? '/',
      manifest.url,
    ).href;
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const offline = await page.goto(startUrl);
    const shell = await page.evaluate(
      () => document.title === 'Dental Companion' && document.getElementById('root') !== null,
    );
    const errors = installabilityErrors.map((error) => error.errorId);
    console.log(
      `Install criteria (DevTools): manifest ${manifest.url} with ${String(manifest.errors.length)} errors` +
        `${manifest.errors.map((error) => ` (${error.message})`).join('')}; ` +
        `installability errors: ${errors.length === 0 ? 'none' : errors.join(', ')}; ` +
        `start URL offline: ${String(offline?.status() ?? 'no answer')}` +
        `${offline?.fromServiceWorker() === true ? ' from the service worker' : ''}, ` +
        (shell ? 'the app shell' : 'not the app shell'),
    );
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

export async function loginBench(): Promise<void> {
  const stale = targets.filter((target) => staleReason(target) !== undefined);
  if (stale.length > 0) await build(stale);
  const chromiumReady = spawnSync(
    process.execPath,
    [path.join(root, 'scripts/ensure-chromium.mjs')],
    {
      stdio: 'inherit',
    },
  );
  if (chromiumReady.status !== 0) throw new Error('Chromium is not available.');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dental-login-bench-'));
  const server = await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    console.log(
      `/login, cold, median of ${String(runs)} loads each (a new browser context per load); kB as transferred.`,
    );
    console.log('profile  served            requests  transferred kB  of it JS kB  FCP ms  LCP ms');
    for (const profile of profiles) {
      for (const compressed of [false, true]) {
        const loads: Load[] = [];
        // One load first to warm the server and the disk cache, not counted.
        await loadOnce(browser, server.url, profile, compressed);
        for (let run = 0; run < runs; run += 1) {
          loads.push(await loadOnce(browser, server.url, profile, compressed));
        }
        const of = (pick: (load: Load) => number) => median(loads.map(pick));
        console.log(
          [
            profile.name.padEnd(8),
            (compressed ? 'Brotli (build)' : 'uncompressed').padEnd(16),
            of((load) => load.requests)
              .toFixed(0)
              .padStart(9),
            of((load) => load.transferredKb)
              .toFixed(0)
              .padStart(15),
            of((load) => load.javascriptKb)
              .toFixed(0)
              .padStart(12),
            of((load) => load.fcpMs)
              .toFixed(0)
              .padStart(7),
            of((load) => load.lcpMs)
              .toFixed(0)
              .padStart(7),
          ].join(' '),
        );
      }
    }
    await lighthouseScores(server.url);
    await installCriteria(server.url);
    printIssueFigures('Performance review', [
      {
        what: '/login transfer',
        filed:
          'uncompressed, 1,347 kB in 48 requests, of it 1,036 kB of JavaScript (416 kB with gzip)',
        goal: '≤ 150 kB of JavaScript compressed, ≤ 10 requests',
      },
      {
        what: '/login first contentful paint, desktop / phone',
        filed:
          '692 ms / 3.5 s with gzip (Foo Medical 432 ms / 2.8 s); 8.3 s on the phone as served',
        goal: 'about ≤ 300 ms / ≤ 2.0 s',
      },
      {
        what: 'Lighthouse mobile performance',
        filed: '51 as served, 67 with gzip (Foo Medical 85)',
        goal: '≥ 95',
      },
    ]);
  } finally {
    await browser.close();
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
