import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import autocannon from 'autocannon';
import { accountPaths, oralPhotoPaths } from '@dental/contracts';
import {
  addPhotos,
  benchDurationSeconds,
  connections,
  loggedInMember,
  startApi,
  webPageSize,
  withBenchDatabase,
} from './harness';

/**
 * Where the API's process spends its time under load of one route: a CPU profile of the load's
 * seconds (the inspector's sampling profiler, in this process, where the API runs; the load comes
 * from a worker thread). Each sample goes to the part that the function nearest the sampled one on
 * its stack belongs to; Node's own modules count only where no part is on the stack, so a file
 * link's HMAC counts as a signature, not as Node's crypto. A socket write is shown apart, split by
 * who wrote: the database driver or the HTTP reply (docs/decisions/api-request-cost.md).
 */
const parts: [string, RegExp][] = [
  ['token check (jose)', /token\.service|node_modules\/jose/],
  ['file link signatures', /lib\/signed-links/],
  ['audit trail', /modules\/audit\//],
  ['response schema (zod)', /node_modules\/zod|type-provider-zod/],
  ['request log (pino)', /node_modules\/pino|member-log|request-log/],
  ['metrics', /plugins\/metrics|prom-client/],
  ['security headers', /security-headers|helmet/],
  ['compression hook', /@fastify\/compress/],
  ['database driver (pg)', /node_modules\/pg(-protocol|-pool)?\//],
  ['query builder (drizzle)', /drizzle-orm/],
  ['photo list code', /modules\/oral-photo\//],
  ['account and session code', /modules\/(account|auth)\//],
  ['Fastify', /node_modules\/(fastify|find-my-way|avvio)\//],
];
const nodeParts: [string, RegExp][] = [
  ['hashing and other crypto (node:crypto)', /node:internal\/crypto/],
  ['Node.js HTTP and sockets', /node:_http|node:net|node:internal\/streams|node:events/],
];

const socketWrites = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String']);

function shares(profile: Profiler.Profile): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const timeDeltas = profile.timeDeltas ?? [];
  const busy = new Map<string, number>();
  profile.samples?.forEach((sampled, index) => {
    const leaf = nodes.get(sampled);
    if (leaf === undefined || leaf.callFrame.functionName === '(idle)') return;
    const micros = timeDeltas[index + 1] ?? 0;
    const stack: Profiler.ProfileNode[] = [];
    for (let id: number | undefined = sampled; id !== undefined; id = parentOf.get(id)) {
      const node = nodes.get(id);
      if (node !== undefined) stack.push(node);
    }
    const nearest = (named: [string, RegExp][], frames: Profiler.ProfileNode[]) =>
      frames
        .map((node) => named.find(([, pattern]) => pattern.test(node.callFrame.url))?.[0])
        .find((name) => name !== undefined);
    const partOf = (frames: Profiler.ProfileNode[]) =>
      nearest(parts, frames) ?? nearest(nodeParts, frames);
    let part: string;
    if (socketWrites.has(leaf.callFrame.functionName)) {
      const writer = stack.find((node) => node.callFrame.url.includes('node_modules'));
      part = `socket writes by ${writer === undefined ? 'Node.js' : (partOf([writer]) ?? 'other')}`;
    } else if (leaf.callFrame.functionName === '(garbage collector)') {
      part = 'garbage collection';
    } else {
      part = partOf(stack) ?? 'other (microtasks, V8)';
    }
    busy.set(part, (busy.get(part) ?? 0) + micros);
  });
  return busy;
}

/** Profiles `url` under load and prints each part's share of the API process's busy time. */
async function profileRoute(label: string, url: string, headers: Record<string, string>) {
  const inspector = new Session();
  inspector.connect();
  try {
    await autocannon({ url, headers, connections, duration: 2, workers: 1 });
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
    const load = await autocannon({
      url,
      headers,
      connections,
      duration: benchDurationSeconds,
      workers: 1,
    });
    const { profile } = await inspector.post('Profiler.stop');
    if (load.non2xx > 0 || load.errors > 0) throw new Error(`${label}: answers other than 2xx.`);
    const busy = shares(profile);
    const total = [...busy.values()].reduce((sum, micros) => sum + micros, 0);
    console.log(
      `${label} under load, ${connections} connections, ${benchDurationSeconds} s, ` +
        `${Math.round(load.requests.average).toLocaleString('en-US')} requests/s while profiled ` +
        `(slower than unprofiled); share of the API process's busy time:`,
    );
    for (const [part, micros] of [...busy].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${part}`);
    }
    console.log(`  ${(total / 1000 / load.requests.total).toFixed(3)} ms of busy time per request`);
  } finally {
    inspector.disconnect();
  }
}

/** `GET /api/account/`, then the web app's page of 30 photos of a member who has 30. */
export async function profileBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl);
    try {
      const bearer = await loggedInMember(api.url);
      await profileRoute('GET /api/account/', `${api.url}${accountPaths.account}`, bearer);
      const listUrl = `${api.url}${oralPhotoPaths.list}`;
      await addPhotos(listUrl, bearer, 0, webPageSize);
      await profileRoute(
        `GET /api/oral-photo/?limit=${String(webPageSize)}`,
        `${listUrl}?limit=${String(webPageSize)}`,
        bearer,
      );
    } finally {
      await api.close();
    }
  });
}
