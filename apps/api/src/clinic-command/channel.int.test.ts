import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths } from '@dental/contracts';
import { strongPassword, uniqueEmail } from '#api-test/factories';
import { makePng } from '#api-test/fixtures/upload-test-files';
import { startServerProcess } from '#api-test/support/server-process';
import { main as clinic } from '#api/cli/clinic';
import { lockDataDir } from '#api/db/data-dir';
import { clinicSocketPath } from './channel';

const tokenSecret = randomBytes(32).toString('base64url');

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'dental-channel-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** `npm run clinic` as the operator runs it, on `dataDir`: its exit code and lines. */
async function run(dataDir: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await clinic(
    argv,
    { DATA_DIR: dataDir, TOKEN_SECRET: tokenSecret },
    (line) => out.push(line),
    (line) => err.push(line),
  );
  return { code, out, err };
}

/** A socket file whose process was killed with -9: what a crashed server leaves behind. */
async function leaveStaleSocket(socketPath: string): Promise<void> {
  const script = `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`;
  const child = spawn(process.execPath, ['--eval', script], { stdio: 'ignore' });
  await once(child, 'exit');
  expect(existsSync(socketPath)).toBe(true);
}

/** Sends raw bytes to the channel; answers what came back before the server closed. */
async function sendRaw(socketPath: string, bytes: Buffer): Promise<string> {
  const socket = connect(socketPath);
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.on('error', () => undefined);
  socket.write(bytes);
  await once(socket, 'close');
  return received.subarray(4).toString('utf8');
}

describe('npm run clinic while the server runs on the embedded database', () => {
  it('is carried out by the server: doctors, questions, a summary with an image; refusals and garbage leave it serving; the socket goes with it', async () => {
    const dataDir = path.join(tmp, 'served');
    const socketPath = clinicSocketPath(dataDir);
    // A crashed server's socket is in the way of the next start.
    await run(dataDir, 'questions', 'list');
    await leaveStaleSocket(socketPath);
    const server = await startServerProcess({ DATA_DIR: dataDir, TOKEN_SECRET: tokenSecret });
    try {
      const added = await run(
        dataDir,
        'doctors',
        'add',
        '--name',
        'Dr. Channel',
        '--timezone',
        'UTC',
      );
      expect(added, server.output()).toMatchObject({ code: 0, err: [] });
      expect(added.out).toEqual([expect.stringMatching(/^Added doctor [0-9a-f-]{36}\.$/)]);
      expect((await run(dataDir, 'doctors', 'list')).out).toContain(
        'Dr. Channel (UTC): no availability',
      );
      expect(
        await run(dataDir, 'questions', 'add', '--label', 'Where does it hurt?'),
      ).toMatchObject({ code: 0 });
      expect((await run(dataDir, 'questions', 'list')).out.at(-1)).toMatch(
        /^\d+\. Where does it hurt\? {2}\[/,
      );
      // A ClinicError comes back as the local command would print it.
      expect(
        await run(dataDir, 'doctors', 'add', '--name', 'Dr. Channel', '--timezone', 'UTC'),
      ).toEqual({ code: 1, out: [], err: ['A doctor named Dr. Channel already exists.'] });

      // A member books by phone; the doctor's summary carries an image read here, sent as bytes.
      const email = uniqueEmail('channel');
      const registered = await fetch(
        `http://127.0.0.1:${String(server.port)}${accountPaths.register}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email,
            username: 'Channel Patient',
            password: strongPassword(),
            phone: null,
          }),
        },
      );
      expect(registered.status).toBe(201);
      const booked = await run(
        dataDir,
        ...['reservations', 'add', '--email', email, '--doctor', 'Dr. Channel'],
        ...['--time', '2026-01-05T09:00:00Z', '--timezone', 'UTC'],
      );
      const reservationId = /^Added reservation (\S+)\.$/.exec(booked.out[0] ?? '')?.[1] ?? '';
      expect(reservationId, booked.err.join('\n')).not.toBe('');
      const image = path.join(tmp, 'scan.png');
      await writeFile(image, await makePng());
      const summary = [
        ...['summary', 'record', '--reservation', reservationId],
        ...['--condition', 'Mild gingivitis', '--suggestion', 'Floss', '--return', '6 months'],
      ];
      expect(await run(dataDir, ...summary, '--image', path.join(tmp, 'missing.png'))).toEqual({
        code: 1,
        out: [],
        err: [`${path.join(tmp, 'missing.png')} could not be read.`],
      });
      const recorded = await run(dataDir, ...summary, '--image', image);
      expect(recorded.err).toEqual([]);
      expect(recorded.out).toEqual([expect.stringMatching(/^Recorded doctor summary \S+\.$/)]);
      expect((await run(dataDir, 'reservations', 'list', '--email', email)).out).toEqual([
        expect.stringMatching(new RegExp(`^${reservationId} .* summary recorded$`)),
      ]);

      // Hostile or broken messages are refused with an answer; the server keeps serving.
      const oversized = Buffer.alloc(4);
      oversized.writeUInt32BE(0xffffffff);
      expect(await sendRaw(socketPath, Buffer.concat([oversized, randomBytes(1024)]))).toContain(
        'larger than 64 MiB',
      );
      const garbled = Buffer.from('not json');
      const header = Buffer.alloc(4);
      header.writeUInt32BE(garbled.length);
      expect(await sendRaw(socketPath, Buffer.concat([header, garbled]))).toContain(
        'Not a clinic command',
      );
      expect(
        await sendRaw(socketPath, Buffer.from(JSON.stringify({ version: 1, argv: 'doctors' }))),
      ).toContain('"error"');
      // A peer that goes away mid-message.
      const halfway = connect(socketPath);
      halfway.on('error', () => undefined);
      halfway.end(Buffer.concat([header, garbled.subarray(0, 3)]));
      await once(halfway, 'close');
      expect((await run(dataDir, 'doctors', 'list')).out).toContain(
        'Dr. Channel (UTC): no availability',
      );
      expect(server.child.exitCode).toBeNull();
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited, server.output()).toBe(0);
    expect(existsSync(socketPath)).toBe(false);
    expect(server.output()).not.toContain('Mild gingivitis');
    // Without the server the command opens the database itself again.
    await leaveStaleSocket(socketPath);
    expect((await run(dataDir, 'doctors', 'list')).out).toContain(
      'Dr. Channel (UTC): no availability',
    );
  }, 400_000);
});

describe('npm run clinic with DATA_DIR held by another process', () => {
  it('says so, naming the holder, when nothing answers at the socket; refuses images past the limit before sending', async () => {
    const dataDir = path.join(tmp, 'held');
    await run(dataDir, 'doctors', 'list');
    const lock = lockDataDir(dataDir);
    try {
      await leaveStaleSocket(clinicSocketPath(dataDir));
      const { code, err } = await run(dataDir, 'doctors', 'list');
      expect(code).toBe(1);
      expect(err.join('\n')).toMatch(
        new RegExp(`DATA_DIR ${dataDir} is in use by process ${String(process.pid)} `),
      );
      // Images past the channel's limit are refused before anything is sent.
      const huge = path.join(tmp, 'huge.png');
      await writeFile(huge, Buffer.alloc(49 * 1024 * 1024));
      const tooLarge = await run(
        dataDir,
        ...['summary', 'record', '--reservation', 'r', '--condition', 'c', '--suggestion', 's'],
        ...['--return', 'r', '--image', huge],
      );
      expect(tooLarge).toEqual({
        code: 1,
        out: [],
        err: [expect.stringMatching(/^The images are too large to send to the running server/)],
      });
    } finally {
      lock.release();
    }
  }, 180_000);

  it('says the command may not have been carried out when the server goes away before answering', async () => {
    const dataDir = path.join(tmp, 'dying');
    await run(dataDir, 'doctors', 'list');
    const lock = lockDataDir(dataDir);
    // A server that stops mid-command: it takes the request and closes without an answer.
    const dying = createServer((socket) => {
      socket.once('data', () => socket.destroy());
    });
    await new Promise<void>((resolve) => dying.listen(clinicSocketPath(dataDir), resolve));
    try {
      const { code, out, err } = await run(
        dataDir,
        'doctors',
        'add',
        '--name',
        'X',
        '--timezone',
        'UTC',
      );
      expect(code).toBe(1);
      expect(out).toEqual([]);
      expect(err.join('\n')).toMatch(/closed the connection before answering .* may or may not/);
    } finally {
      dying.close();
      lock.release();
    }
  }, 180_000);
});
