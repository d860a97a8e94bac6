import { lstatSync, chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { ErrorLogger } from '#api/logger';

/**
 * The running server's local channel for clinic commands on the embedded database: a Unix socket
 * in DATA_DIR, owner-only, one length-prefixed JSON request and one answer per connection
 * (docs/decisions/clinic-channel.md).
 */
export const clinicSocketName = 'clinic.sock';

export const clinicSocketPath = (dataDir: string): string => path.join(dataDir, clinicSocketName);

/** The images of one summary, base64 inside JSON: about nine of the 5 MB that are accepted. */
export const maxRequestBytes = 64 * 1024 * 1024;
const maxAnswerBytes = 16 * 1024 * 1024;
/** A peer that stops sending before its request is whole is cut off. */
const idleMs = 30_000;
const maxConnections = 4;
/** Linux's sun_path holds 108 bytes; a longer path would be cut short, not refused. */
const maxSocketPathBytes = 100;

const requestSchema = z
  .object({
    version: z.literal(1),
    argv: z.array(z.string().max(100_000)).max(1_000),
    files: z.array(z.object({ name: z.string().max(4_096), base64: z.string() })).max(100),
  })
  .strict();

export type ClinicRequest = z.infer<typeof requestSchema>;

export interface ClinicAnswer {
  lines: string[];
  /** The command's error message; null when it succeeded. */
  error: string | null;
}

const answerSchema = z.object({ lines: z.array(z.string()), error: z.string().nullable() });

class FrameError extends Error {}

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

/** Collects one frame: a 4-byte big-endian length, then that many bytes of JSON. */
class FrameReader {
  private buffered = Buffer.alloc(0);

  constructor(private readonly limit: number) {}

  /** The frame's body once whole; throws FrameError for a length over the limit or extra bytes. */
  push(chunk: Buffer): Buffer | undefined {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    if (this.buffered.length < 4) return undefined;
    const length = this.buffered.readUInt32BE(0);
    if (length > this.limit) {
      throw new FrameError(`The message is larger than ${String(this.limit / 1024 / 1024)} MiB.`);
    }
    if (this.buffered.length < 4 + length) return undefined;
    if (this.buffered.length > 4 + length) throw new FrameError('One message per connection.');
    return this.buffered.subarray(4);
  }
}

export interface ClinicChannel {
  /** Stops accepting, waits for the commands running, removes the socket file. */
  close(): Promise<void>;
}

type ChannelLog = Required<ErrorLogger>;

/**
 * Listens on `socketPath` (owner-only) and answers each request with `handle`. The caller holds
 * the DATA_DIR lock, so a file left at the path is a crashed server's and is removed. Answers
 * undefined (and warns) where no channel can be opened: the server runs on without one.
 */
export async function openClinicChannel(
  socketPath: string,
  handle: (request: ClinicRequest) => Promise<ClinicAnswer>,
  log: ChannelLog,
): Promise<ClinicChannel | undefined> {
  if (process.platform === 'win32') return undefined;
  if (Buffer.byteLength(socketPath) > maxSocketPathBytes) {
    log.warn(
      { socketPath },
      'DATA_DIR is too long a path for the clinic channel: npm run clinic needs the server stopped',
    );
    return undefined;
  }
  const connections = new Set<Socket>();
  const busy = new Set<Socket>();
  const running = new Set<Promise<void>>();

  // The answer is the connection's last word: once it is written the socket goes, so a peer that
  // keeps it open (or keeps sending) holds nothing.
  const answer = (socket: Socket, message: ClinicAnswer) => {
    if (!socket.writable) return;
    socket.once('finish', () => socket.destroy());
    socket.end(encodeFrame(message));
  };
  const refuse = (socket: Socket, reason: string) => {
    log.warn({ reason }, 'clinic channel refused a message');
    answer(socket, { lines: [], error: reason });
  };

  const server = createServer((socket) => {
    connections.add(socket);
    // The peer went away (it was stopped, or it misbehaved): nothing to answer, nothing to log.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      connections.delete(socket);
      busy.delete(socket);
    });
    socket.setTimeout(idleMs, () => socket.destroy());
    const reader = new FrameReader(maxRequestBytes);
    const onData = (chunk: Buffer) => {
      let frame: Buffer | undefined;
      try {
        frame = reader.push(chunk);
      } catch (error) {
        socket.off('data', onData);
        refuse(socket, error instanceof FrameError ? error.message : 'Unreadable message.');
        return;
      }
      if (frame === undefined) return;
      socket.off('data', onData);
      socket.setTimeout(0);
      let request: ClinicRequest;
      try {
        const parsed = requestSchema.safeParse(JSON.parse(frame.toString('utf8')));
        if (!parsed.success) throw new FrameError();
        request = parsed.data;
      } catch {
        refuse(socket, 'Not a clinic command this server understands.');
        return;
      }
      busy.add(socket);
      const done = handle(request)
        .catch((error: unknown): ClinicAnswer => {
          log.error({ err: error }, 'clinic command failed');
          return {
            lines: [],
            error: 'The server could not carry out the command; its log says why.',
          };
        })
        .then((message) => {
          answer(socket, message);
        })
        .finally(() => {
          running.delete(done);
        });
      running.add(done);
    };
    socket.on('data', onData);
  });
  server.maxConnections = maxConnections;

  try {
    removeStaleSocket(socketPath);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    chmodSync(socketPath, 0o600);
  } catch (error) {
    server.close();
    log.warn(
      { err: error },
      'the clinic channel could not be opened: npm run clinic needs the server stopped',
    );
    return undefined;
  }
  // Accept failures (too many open files) must not end the server.
  server.on('error', (error) => {
    log.warn({ err: error }, 'clinic channel error');
  });

  return {
    async close() {
      const closed = new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      for (const socket of connections) if (!busy.has(socket)) socket.destroy();
      await Promise.allSettled([...running]);
      await closed;
      removeStaleSocket(socketPath);
    },
  };
}

function removeStaleSocket(socketPath: string): void {
  try {
    if (!lstatSync(socketPath).isDirectory()) unlinkSync(socketPath);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
}

export type ChannelResult =
  | { kind: 'answered'; answer: ClinicAnswer }
  /** Nothing listens at the path (no server, or one without the channel). */
  | { kind: 'no-server' }
  /** Connected, but no whole answer came back: the server stopped, or the answer was garbled. */
  | { kind: 'lost' };

/** Sends one request to the server's channel and waits for its answer. */
export function sendClinicRequest(
  socketPath: string,
  request: ClinicRequest,
): Promise<ChannelResult> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const reader = new FrameReader(maxAnswerBytes);
    let connected = false;
    let result: ChannelResult | undefined;
    socket.once('connect', () => {
      connected = true;
      socket.write(encodeFrame(request));
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        const frame = reader.push(chunk);
        if (frame === undefined) return;
        const parsed = answerSchema.safeParse(JSON.parse(frame.toString('utf8')));
        result = parsed.success ? { kind: 'answered', answer: parsed.data } : { kind: 'lost' };
      } catch {
        result = { kind: 'lost' };
      }
      socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      resolve(result ?? (connected ? { kind: 'lost' } : { kind: 'no-server' }));
    });
  });
}
