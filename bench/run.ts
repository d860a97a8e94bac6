import { accountBench } from './account.bench';
import { auditTrailBench } from './audit-trail.bench';
import { captureQualityBench } from './capture-quality.bench';
import { profileBench } from './profile.bench';
import { dataExportBench } from './data-export.bench';
import { dentalAiBench } from './dental-ai.bench';
import { dentalAiTtaBench } from './dental-ai-tta.bench';
import { dicomBench } from './dicom.bench';
import { loginBench } from './login.bench';
import { oralPhotoBench } from './oral-photo.bench';
import { remindersBench } from './reminders.bench';
import { scaleBench } from './scale.bench';
import { seed } from './seed';
import { reportsBench } from './reports.bench';
import { startBench } from './start.bench';

/**
 * `npm run bench` runs every benchmark in order; `npm run bench -- account` only the named ones.
 * Each prints its own figures and ratios (benchmarks never assert timings). Flags after the names
 * go to each named one (`npm run bench -- seed --members 100000`).
 */
const benches: Record<string, (flags: string[]) => Promise<void>> = {
  account: accountBench,
  profile: profileBench,
  'oral-photo': oralPhotoBench,
  reminders: remindersBench,
  'dental-ai': dentalAiBench,
  'dental-ai-tta': dentalAiTtaBench,
  dicom: dicomBench,
  start: startBench,
  login: loginBench,
  reports: reportsBench,
  'data-export': dataExportBench,
  'capture-quality': captureQualityBench,
};
/** Run only when named: the generator replaces its database, and the scale and audit-trail
 *  benches need one. */
const onlyWhenNamed: Record<string, (flags: string[]) => Promise<void>> = {
  seed,
  scale: scaleBench,
  'audit-trail': auditTrailBench,
};

const firstFlag = process.argv.findIndex((arg, index) => index >= 2 && arg.startsWith('--'));
const wanted = process.argv.slice(2, firstFlag === -1 ? undefined : firstFlag);
const flags = firstFlag === -1 ? [] : process.argv.slice(firstFlag);
const known = { ...benches, ...onlyWhenNamed };

const unknown = wanted.filter((name) => !(name in known));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(known).join(', ')}.`,
  );
  process.exit(1);
}

if (flags.length > 0 && wanted.length === 0) {
  console.error('Flags go to the named benchmarks: name them first.');
  process.exit(1);
}
for (const [name, bench] of Object.entries(known)) {
  if (wanted.length > 0 ? !wanted.includes(name) : name in onlyWhenNamed) continue;
  console.log(`\n=== ${name} ===`);
  await bench(flags);
}
