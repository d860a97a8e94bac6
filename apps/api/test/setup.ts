/**
 * Every API test file runs with this first. A statement sent on a pg client that is still
 * running one only queues until pg 9, which refuses it: in a transaction (one client), the
 * statements must go one after another. pg says so once per process, as a deprecation warning;
 * here that warning fails the run, naming the file that caused it.
 */
const overlapWarning = 'Calling client.query() when the client is already executing a query';
const guard = Symbol.for('dental.test.overlapping-queries-guard');
const installed = globalThis as { [guard]?: true };

// Test files share a worker (isolate: false): one listener per worker.
if (installed[guard] !== true) {
  installed[guard] = true;
  process.on('warning', (warning) => {
    if (warning.name === 'DeprecationWarning' && warning.message.startsWith(overlapWarning)) {
      throw new Error(`Overlapping statements on one database client: ${warning.message}`, {
        cause: warning,
      });
    }
  });
}
