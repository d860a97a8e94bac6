// `npm start`: builds what is missing or older than its sources, then runs the compiled server in
// this same process (one process to signal, no second Node.js in memory;
// docs/decisions/start-and-runtime.md).
import { pathToFileURL } from 'node:url';
import { buildStale, targets } from './build.mjs';

await buildStale();

const api = targets.find((target) => target.name === 'API');
await import(pathToFileURL(api.output).href);
