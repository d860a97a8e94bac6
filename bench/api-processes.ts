// What the scale-out drill and the scale bench share (docs/decisions/scale-out-drill.md,
// docs/decisions/scale-bench.md): API processes started as `npm start` would, a child process
// with its log, and nginx in front of the API processes, on loopback only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { chmodSync, chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const loopback = '127.0.0.1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type ApiEntry = 'server' | 'worker';
export type ApiCommand = (entry: ApiEntry) => { command: string; args: string[] };

/** What scripts/build.mjs exports (plain JavaScript, so typed here). */
interface BuildScript {
  targets: { name: string; output: string }[];
  staleReason(target: unknown): string | undefined;
  build(list: unknown[], reasons: Map<unknown, string>): Promise<void>;
}

/**
 * How API and worker processes start: the compiled build, built first when older than its
 * sources (as `npm start` does), or tsx on the sources where there is no build script. Either
 * way one node process, so that kill -9 hits the server itself and not a wrapper.
 */
export async function apiProcessCommand(): Promise<ApiCommand> {
  const buildScript = path.join(repoRoot, 'scripts/build.mjs');
  const script = existsSync(buildScript)
    ? ((await import(pathToFileURL(buildScript).href)) as BuildScript)
    : undefined;
  const api = script?.targets.find((target) => target.name === 'API');
  if (script === undefined || api === undefined) {
    return (entry) => ({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(repoRoot, `apps/api/src/${entry}.ts`)],
    });
  }
  const reason = script.staleReason(api);
  if (reason !== undefined) await script.build([api], new Map([[api, reason]]));
  return (entry) => ({
    command: process.execPath,
    args: [path.join(path.dirname(api.output), `${entry}.js`)],
  });
}

export interface Managed {
  name: string;
  child: ChildProcess;
  /** Answered when the process says it is up; rejected when it exits first. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** The last 4,000 characters it wrote, for a report of why it exited. */
  output: () => string;
}

export const running = new Set<Managed>();
// Should the drill itself fail hard, it takes its processes with it.
process.on('exit', () => {
  for (const managed of running) managed.child.kill('SIGKILL');
});

/** Starts a child process whose output goes to a log file; ready when `readyLine` appears. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  readyLine: RegExp | undefined,
): Managed {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    if (readyLine === undefined) resolve();
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      writeFileSync(logFile, text, { flag: 'a' });
      output = (output + text).slice(-4000);
      if (readyLine === undefined) return;
      if (readyLine.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      reject(new Error(`${name} exited (${String(code)}) before it was ready:\n${output}`));
    });
  });
  // An early exit of a process nobody waits on must not crash the drill.
  ready.catch(() => undefined);
  const managed = { name, child, ready, exited, output: () => output };
  running.add(managed);
  void exited.then(() => running.delete(managed));
  return managed;
}

/** An API process with WORKERS=off on `port`, its data and log under `dataDir`. */
export function startApiServer(
  commandFor: ApiCommand,
  port: number,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Managed {
  const { command, args } = commandFor('server');
  return startProcess(
    `API :${String(port)}`,
    command,
    args,
    { ...env, PORT: String(port), WORKERS: 'off', DATA_DIR: dataDir },
    `${dataDir}.log`,
    /is running at/,
  );
}

export async function stopProcess(
  managed: Managed,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (managed.child.exitCode !== null || managed.child.signalCode !== null) return;
  managed.child.kill(signal);
  const timeout = sleep(15_000).then(() => 'timeout' as const);
  if ((await Promise.race([managed.exited, timeout])) === 'timeout') managed.child.kill('SIGKILL');
}

export function ensureNginx(say: (line: string) => void): string {
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx'], {
    encoding: 'utf8',
  });
  const existing = found.stdout.trim().split('\n')[0];
  if (found.status === 0 && existing) return existing;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'nginx is not installed. Install Debian’s package, then run the drill again:\n' +
        '  sudo apt-get update && sudo apt-get install -y nginx',
    );
  }
  say('installing nginx (apt-get install -y nginx)');
  const install = () =>
    spawnSync('apt-get', ['install', '-y', 'nginx'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    if (!install()) throw new Error('apt-get install -y nginx failed.');
  }
  return '/usr/sbin/nginx';
}

/**
 * The load balancer. A request that could not be sent to an API process (refused: the process
 * is dead or starting) goes to the other one, also a POST; a request already sent is retried
 * elsewhere only when idempotent (nginx's default `proxy_next_upstream error timeout`, without
 * `non_idempotent`), so a write in flight on a killed process fails instead of running twice.
 */
function nginxConfig(
  prefix: string,
  asRoot: boolean,
  listenPort: number,
  upstreamPorts: readonly number[],
): string {
  return `${asRoot ? 'user nobody nogroup;\n' : ''}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  client_max_body_size 40m;
  upstream api {
${upstreamPorts.map((port) => `    server ${loopback}:${String(port)} max_fails=1 fail_timeout=2s;\n`).join('')}  }
  server {
    listen ${loopback}:${String(listenPort)};
    location / {
      proxy_pass http://api;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      proxy_set_header Host $host;
      # The edge proxy sets the client address; the API trusts it from this proxy only.
      proxy_set_header X-Forwarded-For $remote_addr;
      add_header X-Drill-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * nginx on `listenPort` in front of the API processes on `upstreamPorts`, its files under
 * `workDir`/nginx; answers once a request through it reaches an API.
 */
export async function startNginx(
  workDir: string,
  listenPort: number,
  upstreamPorts: readonly number[],
  say: (line: string) => void,
  env: NodeJS.ProcessEnv,
): Promise<Managed> {
  const nginx = ensureNginx(say);
  const asRoot = process.getuid?.() === 0;
  const prefix = path.join(workDir, 'nginx');
  mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  if (asRoot) {
    // nginx's workers run as nobody: they buffer request bodies under tmp/.
    chmodSync(workDir, 0o711);
    chmodSync(prefix, 0o711);
    chownSync(path.join(prefix, 'tmp'), 65534, 65534);
  }
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    nginxConfig(prefix, asRoot, listenPort, upstreamPorts),
  );
  const proxy = startProcess(
    'nginx',
    nginx,
    ['-c', path.join(prefix, 'nginx.conf'), '-p', prefix, '-g', 'daemon off;'],
    env,
    path.join(prefix, 'stdout.log'),
    undefined,
  );
  for (let attempt = 0; ; attempt += 1) {
    const up = await fetch(`http://${loopback}:${String(listenPort)}/api/config/`).catch(
      () => undefined,
    );
    if (up?.status === 200) return proxy;
    if (attempt > 50 || proxy.child.exitCode !== null) {
      throw new Error(`nginx did not come up; see ${prefix}/error.log`);
    }
    await sleep(200);
  }
}

// HTTP from a chosen loopback address, as clients behind the proxy would talk

export interface Answer {
  status: number;
  /** nginx's $upstream_addr: the API process(es) that served the request. */
  upstream: string;
  retryAfter: string | undefined;
  body: unknown;
}

const agents = new Map<string, http.Agent>();
/** Closes the kept-alive connections of `request`, so the process can end. */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
const agentFor = (localAddress: string) => {
  let agent = agents.get(localAddress);
  if (agent === undefined) {
    agent = new http.Agent({ keepAlive: true, localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
};

/** One JSON request; network errors reject. */
export function request(
  base: string,
  from: string,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${urlPath}`,
      {
        method,
        agent: agentFor(from),
        timeout: 60_000,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: unknown = text;
          if ((res.headers['content-type'] ?? '').includes('json')) {
            try {
              body = JSON.parse(text);
            } catch {
              // An error page from the proxy: keep the text.
            }
          }
          resolve({
            status: res.statusCode ?? 0,
            upstream: String(res.headers['x-drill-upstream'] ?? ''),
            retryAfter: res.headers['retry-after'],
            body,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}
