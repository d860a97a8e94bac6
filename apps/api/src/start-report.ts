import type { LogLevel } from './config';

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * The start banner's timing line, and at LOG_LEVEL=debug or trace its memory line: how long the
 * process took to listen (a restart should take under 3 s) and what it holds once it does
 * (docs/decisions/start-and-runtime.md).
 */
export function startReportLines(
  level: LogLevel,
  upSeconds: number,
  memory: NodeJS.MemoryUsage,
): string[] {
  const lines = [`  Started:  in ${upSeconds.toFixed(1)} s`];
  if (level === 'debug' || level === 'trace') {
    lines.push(
      `  Debug:    RSS ${megabytes(memory.rss)} (JS heap ${megabytes(memory.heapUsed)}, outside the heap ${megabytes(memory.external)}), Node.js ${process.version}`,
    );
  }
  return lines;
}
