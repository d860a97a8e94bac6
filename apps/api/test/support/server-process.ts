import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `server.ts` as its own process on 127.0.0.1 and a free port, resolved once it listens; `env`
 * names its DATA_DIR, TOKEN_SECRET and whatever else the test needs.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawnServer(env);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const port = await new Promise<number>((resolve, reject) => {
    const look = () => {
      const found = /is running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (found) resolve(Number(found[1]));
    };
    child.stdout.on('data', look);
    void exited.then((code) => {
      reject(new Error(`The server exited with ${String(code)} before listening:\n${output}`));
    });
  });
  return { child, port, output: () => output, exited };
}

/** `server.ts` as its own process on 127.0.0.1, its stdout and stderr piped to this one. */
export function spawnServer(env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DENTAL_AI_SHIPPED_MODELS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
