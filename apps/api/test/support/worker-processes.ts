import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';
import pg from 'pg';
import type { TestApp } from '../build-test-app';
import type { SmtpInbox } from '../smtp-inbox';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Worker processes (`worker.ts`, or a stand-in under test/) on the PostgreSQL test database, for
 * the tests of jobs sent exactly once while workers race and die
 * (docs/decisions/reminder-delivery.md).
 */
export function workerProcesses(t: TestApp, smtp: SmtpInbox) {
  const running = new Set<ChildProcess>();

  function databaseUrl(): string {
    const client = '$client' in t.db ? t.db.$client : undefined;
    if (!(client instanceof pg.Pool) || client.options.connectionString === undefined) {
      throw new Error('expected the PostgreSQL test database');
    }
    return client.options.connectionString;
  }

  function stop(worker: ChildProcess, signal: NodeJS.Signals): Promise<void> {
    return new Promise((resolve) => {
      worker.once('exit', () => {
        running.delete(worker);
        resolve();
      });
      worker.kill(signal);
    });
  }

  return {
    /**
     * A worker in its own process; resolves once it works the queues. Mail goes to the SMTP
     * server, or to the outbox folder for a worker the test kills (a connection cut in the middle
     * of a message is not what is tested, and the SMTP server would report it). `onOutput`
     * hears all it has printed so far, each time it prints.
     */
    async start(
      mail: 'smtp' | 'outbox' = 'smtp',
      options: { script?: string; onOutput?: (output: string) => void } = {},
    ): Promise<ChildProcess> {
      const { script = 'apps/api/src/worker.ts', onOutput = () => undefined } = options;
      const worker = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl(),
          DATA_DIR: t.config.dataDir,
          TOKEN_SECRET: t.config.tokenSecret,
          PUBLIC_URL: t.config.publicUrl,
          // The test app's address is not loopback; it has no payment provider either.
          PAYMENTS: 'test',
          SMTP_URL: mail === 'smtp' ? smtp.url : '',
          JOB_POLL_SECONDS: '0.5',
          REMINDER_ATTEMPT_SECONDS: '3',
          REMINDER_RETRY_DELAY_SECONDS: '1',
        },
      });
      running.add(worker);
      let output = '';
      await new Promise<void>((resolve, reject) => {
        worker.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          onOutput(output);
          if (output.includes('Job worker started')) resolve();
        });
        worker.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        worker.once('exit', (code) => {
          reject(new Error(`worker exited with ${String(code)} before starting:\n${output}`));
        });
      });
      return worker;
    },

    stop,

    /** Stops every worker still running, gracefully, so no SMTP conversation is cut. */
    stopAll(): Promise<void> {
      return Promise.all([...running].map((worker) => stop(worker, 'SIGTERM'))).then(
        () => undefined,
      );
    },

    /** The e-mails in the outbox folder. */
    async outboxMessages(): Promise<ParsedMail[]> {
      const folder = path.join(t.config.dataDir, 'outbox', 'mail');
      const names = await readdir(folder).catch(() => [] as string[]);
      return Promise.all(
        names
          .filter((name) => name.endsWith('.eml'))
          .map(async (name) => simpleParser(await readFile(path.join(folder, name)))),
      );
    },
  };
}
