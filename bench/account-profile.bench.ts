import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import autocannon from 'autocannon';
import { accountPaths } from '@dental/contracts';
import {
  benchDurationSeconds,
  connections,
  loggedInMember,
  startApi,
  withBenchDatabase,
} from './harness';

/**
 * Where the API's process spends its time under `GET /api/account/` load: a CPU profile of the
 * load's seconds (the inspector's sampling profiler, in this process, where the API runs; the
 * load comes from a worker thread), each sample given to the first part of the work named below
 * on its stack, from the sampled function outwards. A socket write is shown apart and split by
 * who wrote: the database driver or the HTTP reply (docs/decisions/api-request-cost.md).
 */
const parts: [string, RegExp][] = [
  [
    'token check and other hashing (jose, node:crypto)',
    /token\.service|node_modules\/jose|node:internal\/crypto/,
  ],
  ['security headers', /security-headers|helmet/],
  ['response schema (zod)', /node_modules\/zod|type-provider-zod/],
  ['request log (pino)', /node_modules\/pino|member-log|request-log/],
  ['audit hook', /modules\/audit\//],
  ['metrics', /plugins\/metrics|prom-client/],
  ['compression hook', /@fastify\/compress/],
  ['database driver (pg)', /node_modules\/pg(-protocol|-pool)?\//],
  ['query builder (drizzle)', /drizzle-orm/],
  ['account and session code', /modules\/(account|auth)\//],
  ['Fastify', /node_modules\/(fastify|find-my-way|avvio)\//],
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
    const partOf = (node: Profiler.ProfileNode) =>
      parts.find(([, pattern]) => pattern.test(node.callFrame.url))?.[0];
    let part: string;
    if (socketWrites.has(leaf.callFrame.functionName)) {
      const writer = stack.find((node) => node.callFrame.url.includes('node_modules'));
      part = `socket writes by ${writer === undefined ? 'Node.js' : (partOf(writer) ?? 'other')}`;
    } else if (leaf.callFrame.functionName === '(garbage collector)') {
      part = 'garbage collection';
    } else {
      part = stack.map(partOf).find((name) => name !== undefined) ?? 'other (microtasks, V8)';
    }
    busy.set(part, (busy.get(part) ?? 0) + micros);
  });
  return busy;
}

export async function accountProfileBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl);
    const inspector = new Session();
    inspector.connect();
    try {
      const bearer = await loggedInMember(api.url);
      const url = `${api.url}${accountPaths.account}`;
      await autocannon({ url, headers: bearer, connections, duration: 2, workers: 1 });
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
      const load = await autocannon({
        url,
        headers: bearer,
        connections,
        duration: benchDurationSeconds,
        workers: 1,
      });
      const { profile } = await inspector.post('Profiler.stop');
      const busy = shares(profile);
      const total = [...busy.values()].reduce((sum, micros) => sum + micros, 0);
      console.log(
        `GET /api/account/ under load, ${connections} connections, ${benchDurationSeconds} s, ` +
          `${Math.round(load.requests.average).toLocaleString('en-US')} requests/s while profiled ` +
          `(slower than unprofiled); share of the API process's busy time:`,
      );
      for (const [part, micros] of [...busy].sort((a, b) => b[1] - a[1])) {
        console.log(`  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${part}`);
      }
      const requests = load.requests.total;
      console.log(`  ${(total / 1000 / requests).toFixed(3)} ms of busy time per request`);
    } finally {
      inspector.disconnect();
      await api.close();
    }
  });
}
