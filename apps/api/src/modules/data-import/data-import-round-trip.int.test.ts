import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import {
  exportArchive,
  fillRecord,
  importAndWait,
  openArchive,
} from '#api-test/support/data-import';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';

/**
 * The round trip (docs/decisions/data-import.md): a member's record exported from one installation, imported into a new
 * member of another (its own database, blob store and address), exported again. The two Bundles
 * agree resource by resource once ids (and the addresses made of them) are set aside, and every
 * file is the same bytes. Written against whatever the export produces, so that it holds as the
 * export's format changes.
 */
const installations: { t: TestApp; api: JobQueueApp }[] = [];

beforeAll(async () => {
  for (const publicUrl of ['https://first.example', 'https://second.example']) {
    const t = await buildTestApp({ env: { JOB_POLL_SECONDS: '0.5', PUBLIC_URL: publicUrl } });
    installations.push({ t, api: await withJobQueue(t) });
  }
}, 120_000);

afterAll(async () => {
  for (const { t, api } of installations) {
    await api.close();
    await t.close();
  }
});

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Ids, and the installation's address that scopes identifiers, set aside. */
const withoutIds = (text: string) =>
  text.replaceAll(uuid, '<id>').replaceAll(/https:\/\/(first|second)\.example/g, '<server>');

/** Each resource but the member themself (another person on the other side), ids aside. */
function resources(bundle: Bundle): string[] {
  return (bundle.entry ?? [])
    .map((entry) => entry.resource)
    .filter((resource): resource is Resource => resource !== undefined)
    .filter((resource) => resource.resourceType !== 'Patient')
    .map((resource) => withoutIds(JSON.stringify(resource)))
    .sort();
}

/** Every file of the archive but the Bundles and the index, as its path with ids aside and its
 *  bytes, in a stable order (two Dental AI images differ only by their ids' places). */
function filesOf(files: ReadonlyMap<string, Buffer>): [string, Buffer][] {
  return [...files]
    .filter(([name]) => name.startsWith('files/'))
    .map(([name, bytes]): [string, Buffer] => [withoutIds(name), bytes])
    .sort(([a, x], [b, y]) => a.localeCompare(b) || Buffer.compare(x, y));
}

it('exports, imports on another installation and exports again: the same resources and bytes', async () => {
  const [first, second] = installations;
  if (first === undefined || second === undefined) throw new Error('Two installations expected');
  const alice = await factories(first.t).loggedInMember({ username: 'Alex Morgan' });
  await fillRecord(first.t, first.api.app, alice);
  const original = await openArchive(await exportArchive(first.t, first.api.app, alice));

  const moved = await factories(second.t).loggedInMember({ username: 'Alex Morgan' });
  const outcome = await importAndWait(
    second.api.app,
    moved,
    await exportArchive(first.t, first.api.app, alice),
  );
  expect(outcome).toMatchObject({ status: 'done', skipped: 0, errors: [] });
  const again = await openArchive(await exportArchive(second.t, second.api.app, moved));

  expect(resources(again.bundle)).toEqual(resources(original.bundle));
  expect(resources(again.bundle).length).toBeGreaterThanOrEqual(8);
  const [before, after] = [filesOf(original.files), filesOf(again.files)];
  // Photo, DICOM X-ray (rendering and original), X-ray, two record files, two Dental AI images.
  expect(before).toHaveLength(8);
  expect(after.map(([name]) => name)).toEqual(before.map(([name]) => name));
  for (const [index, [name, bytes]] of before.entries()) {
    expect(after[index]?.[1], name).toEqual(bytes);
  }
}, 180_000);
