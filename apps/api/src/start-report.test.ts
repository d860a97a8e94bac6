import { describe, expect, it } from 'vitest';
import { startReportLines } from './start-report';

const memory = {
  rss: 300 * 1024 * 1024,
  heapTotal: 40 * 1024 * 1024,
  heapUsed: 30 * 1024 * 1024,
  external: 150 * 1024 * 1024,
  arrayBuffers: 0,
};

describe('startReportLines', () => {
  it('gives the time to listen at every level', () => {
    expect(startReportLines('info', 1.234, memory)).toEqual(['  Started:  in 1.2 s']);
  });

  it.each(['debug', 'trace'] as const)('adds the resident memory at %s', (level) => {
    const lines = startReportLines(level, 1.234, memory);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('RSS 300 MB (JS heap 30 MB, outside the heap 150 MB)');
    expect(lines[1]).toContain(`Node.js ${process.version}`);
  });
});
