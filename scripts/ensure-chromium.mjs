// Makes sure the browser the Playwright journeys drive is Debian's Chromium. The project never
// downloads a browser by any other route: when it is missing it is installed with apt-get where
// this process may do so, and otherwise the run fails with the command to type.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const defaultPath = '/usr/bin/chromium';
const configured = process.env.CHROMIUM_PATH;
const browserPath = configured ?? defaultPath;

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function aptGet(args) {
  console.log(`$ apt-get ${args.join(' ')}`);
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) fail(`apt-get could not start: ${result.error.message}`);
  if (result.status !== 0)
    fail(`apt-get ${args.join(' ')} failed with exit code ${result.status}.`);
}

if (executable(browserPath)) {
  console.log(`Chromium: ${browserPath}`);
  process.exit(0);
}

if (configured !== undefined) {
  fail(
    `CHROMIUM_PATH is set to ${configured}, which is not an executable file.\n` +
      `Point it at a Chromium binary, or unset it to use Debian's ${defaultPath}.`,
  );
}

const installCommand = 'apt-get update && apt-get install -y chromium';
const isRoot = process.getuid?.() === 0;
const hasAptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

if (!hasAptGet) {
  fail(
    `Chromium is missing at ${defaultPath} and apt-get is not available here.\n` +
      `Install Chromium with your system's package manager, then run the tests with\n` +
      `  CHROMIUM_PATH=/path/to/chromium npm test`,
  );
}
if (!isRoot) {
  fail(
    `Chromium is missing at ${defaultPath}. Install Debian's package, then run the tests again:\n` +
      `  sudo sh -c '${installCommand}'`,
  );
}

console.log(`Chromium is missing at ${defaultPath}; installing Debian's package.`);
aptGet(['update']);
aptGet(['install', '-y', 'chromium']);
if (!executable(defaultPath)) {
  fail(`apt-get installed chromium but ${defaultPath} is still missing.`);
}
console.log(`Chromium: ${defaultPath}`);
