// `npm start`: builds what is missing or older than its sources, then runs the compiled server in
// this same process (one process to signal, no second Node.js in memory;
// docs/decisions/start-and-runtime.md).
import { pathToFileURL } from 'node:url';
import { build, staleReason, targets } from './build.mjs';

const reasons = new Map();
for (const target of targets) {
  const reason = staleReason(target);
  if (reason !== undefined) reasons.set(target, reason);
}
await build([...reasons.keys()], reasons);

const api = targets.find((target) => target.name === 'API');
await import(pathToFileURL(api.output).href);
