import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths } from '@dental/contracts';
import { lockFileName } from './db/data-dir';
import { healthPaths } from './plugins/health';
import { strongPassword, uniqueEmail } from '../test/factories';
import { freePort } from '../test/support/free-port';
import {
  spawnServer,
  startServerProcess,
  type ServerProcess,
} from '../test/support/server-process';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'dental-shutdown-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

interface RunningServer extends ServerProcess {
  dataDir: string;
}

/** `server.ts` as its own process on its own DATA_DIR and a free port, job workers on. */
async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmp, 'data-'));
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    WORKERS: 'on',
    TOKEN_SECRET: randomBytes(32).toString('base64url'),
    ...env,
  });
  return { ...server, dataDir };
}

/** Resolves once a new connection to the port is refused. */
async function refusesConnections(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        resolve(error.code === 'ECONNREFUSED');
      });
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A sign-up whose body is held back: it resolves once the server has the request (its
 * `100 Continue` says so) and half of the body, so the request is in flight until `rest` is sent.
 */
async function startSignUp(
  port: number,
): Promise<{ socket: Socket; rest: string; answer: Promise<string> }> {
  const body = JSON.stringify({
    email: uniqueEmail('shutdown'),
    username: 'Shutdown Test',
    password: strongPassword(),
    phone: null,
  });
  const socket = connect(port, '127.0.0.1');
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST ${accountPaths.register} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${String(Buffer.byteLength(body))}\r\n\r\n`,
  );
  let received = '';
  const continued = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve();
    });
  });
  const answer = new Promise<string>((resolve) => {
    socket.once('close', () => {
      resolve(received.replace('HTTP/1.1 100 Continue\r\n\r\n', ''));
    });
  });
  await continued;
  socket.write(body.slice(0, half));
  return { socket, rest: body.slice(half), answer };
}

/** A server process migrates a new embedded database before it listens: slow on a busy machine. */
const startAndStop = 240_000;

describe('shutdown on SIGTERM', () => {
  it(
    'stops accepting, finishes the request in flight, releases DATA_DIR and exits 0',
    async () => {
      const server = await startServer();
      const signUp = await startSignUp(server.port);
      server.child.kill('SIGTERM');
      await refusesConnections(server.port);
      signUp.socket.write(signUp.rest);
      // Answered, then the connection is closed by the server (the answer resolves on close).
      expect(await signUp.answer).toMatch(/^HTTP\/1\.1 201 /);
      expect(await server.exited, server.output()).toBe(0);
      // The database was closed and its lock released: the next start may open the folder.
      expect(existsSync(path.join(server.dataDir, lockFileName))).toBe(false);
    },
    startAndStop,
  );

  it(
    'cuts off a request still unfinished at SHUTDOWN_TIMEOUT_SECONDS and still exits 0',
    async () => {
      const server = await startServer({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
      const signUp = await startSignUp(server.port);
      server.child.kill('SIGTERM');
      // The rest of the body never comes: the server closes the connection without an answer.
      expect(await signUp.answer).toBe('');
      expect(await server.exited, server.output()).toBe(0);
      expect(existsSync(path.join(server.dataDir, lockFileName))).toBe(false);
    },
    startAndStop,
  );
});

describe('without a console', () => {
  it(
    'keeps serving when whoever read its output has gone, and still exits 0 on SIGTERM',
    async () => {
      const port = await freePort();
      const child = spawnServer({
        DATA_DIR: await mkdtemp(path.join(tmp, 'data-')),
        PORT: String(port),
        // Every request writes a line, so writes keep failing after the start banner's.
        LOG_LEVEL: 'info',
        TOKEN_SECRET: randomBytes(32).toString('base64url'),
      });
      const exited = once(child, 'exit').then(([code]) => code as number | null);
      // The reader goes away before the server has written anything: each write gets EPIPE.
      child.stdout.destroy();
      child.stderr.destroy();
      let live: Response | undefined;
      while (live === undefined) {
        const stillRunning = new Promise<'running'>((resolve) =>
          setTimeout(() => {
            resolve('running');
          }, 200),
        );
        const state = await Promise.race([exited, stillRunning]);
        if (state !== 'running') throw new Error(`The server exited with ${String(state)}`);
        live = await fetch(`http://127.0.0.1:${String(port)}${healthPaths.live}`).catch(
          () => undefined,
        );
      }
      expect(live.status).toBe(200);
      const again = await fetch(`http://127.0.0.1:${String(port)}${healthPaths.live}`);
      expect(again.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
    startAndStop,
  );
});
