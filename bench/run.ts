import { accountBench } from './account.bench';
import { captureQualityBench } from './capture-quality.bench';
import { profileBench } from './profile.bench';
import { dataExportBench } from './data-export.bench';
import { dentalAiBench } from './dental-ai.bench';
import { dentalAiTtaBench } from './dental-ai-tta.bench';
import { dicomBench } from './dicom.bench';
import { loginBench } from './login.bench';
import { oralPhotoBench } from './oral-photo.bench';
import { remindersBench } from './reminders.bench';
import { reportsBench } from './reports.bench';
import { startBench } from './start.bench';

/**
 * `npm run bench` runs every benchmark in order; `npm run bench -- account` only the named ones.
 * Each prints its own figures and ratios (benchmarks never assert timings).
 */
const benches: Record<string, () => Promise<void>> = {
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

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benches).join(', ')}.`,
  );
  process.exit(1);
}

for (const [name, bench] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  await bench();
}
