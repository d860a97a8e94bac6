// The Dental AI bench's detections during its load measurement, from a thread of their own like
// autocannon's: sent from the API's own event loop, the requests' base64 bodies and answers would
// take that loop's time from the route being measured. Plain JavaScript: a worker thread does not
// inherit tsx.
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string, body: string, bearers: Record<string, string>[], usesEach: number, concurrency: number }} */
const { url, body, bearers, usesEach, concurrency } = workerData;

let stopped = false;
let used = 0;
let completed = 0;
parentPort?.on('message', () => {
  stopped = true;
});

async function keepDetecting() {
  while (!stopped && used < bearers.length * usesEach) {
    const bearer = bearers[Math.floor(used / usesEach)];
    used += 1;
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body,
    });
    const answer = await res.text();
    if (res.status !== 201) throw new Error(`Detection answered ${res.status}: ${answer}`);
    completed += 1;
  }
}

await Promise.all(Array.from({ length: concurrency }, keepDetecting));
parentPort?.postMessage(completed);
