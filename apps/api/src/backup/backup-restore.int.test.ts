import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { medicalRecordPaths, oralPhotoPaths } from '@dental/contracts';
import { LocalBlobStore } from '../adapters/blob-store/local-blob-store';
import { loadConfig, type Config } from '../config';
import { databaseTarget, openDatabase, rowsOf, type DatabaseHandle } from '../db/client';
import { buildTestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePdf, makePng } from '#api-test/fixtures/upload-test-files';
import { backup } from './backup';
import { BackupError, manifestFileName } from './manifest';
import { restore } from './restore';

const info = inject('testDatabase');
const tokenSecret = randomBytes(32).toString('base64url');
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

let tmp: string;
const databases: string[] = [];
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'dental-backup-'));
});
afterAll(async () => {
  if (info.kind === 'postgres') {
    await withAdmin(async (admin) => {
      for (const name of databases) {
        await admin.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
      }
    });
  }
  await rm(tmp, { recursive: true, force: true });
});

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  if (info.kind !== 'postgres') throw new Error('PostgreSQL only');
  const client = new pg.Client({ connectionString: info.adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database: migrated (from the run's template) or empty. */
async function newPostgresDatabase(migrated: boolean): Promise<string> {
  if (info.kind !== 'postgres') throw new Error('PostgreSQL only');
  const name = `${info.template.replace(/_template$/, '')}_bk_${randomBytes(4).toString('hex')}`;
  databases.push(name);
  await withAdmin((admin) =>
    admin.query(
      `CREATE DATABASE ${quote(name)}${migrated ? ` TEMPLATE ${quote(info.template)}` : ''}`,
    ),
  );
  const url = new URL(info.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A place to run in: its own DATA_DIR, and on PostgreSQL its own database (migrated or empty). */
async function newPlace(migrated: boolean): Promise<Config> {
  const dataDir = await mkdtemp(path.join(tmp, 'data-'));
  return loadConfig({
    DATA_DIR: dataDir,
    TOKEN_SECRET: tokenSecret,
    LOG_LEVEL: 'silent',
    ...(info.kind === 'postgres' ? { DATABASE_URL: await newPostgresDatabase(migrated) } : {}),
  });
}

/** The rows of a raw query's result: both drivers answer `{ rows }`. */

/** Every row of every table (the app's, drizzle's journal, the job queue's), as sorted JSON. */
async function everyRow(config: Config): Promise<Record<string, string[]>> {
  const database: DatabaseHandle = await openDatabase(databaseTarget(config));
  try {
    const tables = rowsOf<{ schema: string; name: string }>(
      await database.db
        .execute(sql`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
          ORDER BY 1, 2`),
    );
    const rows: Record<string, string[]> = {};
    for (const { schema, name } of tables) {
      const result = rowsOf<{ row: string }>(
        await database.db.execute(
          sql.raw(`SELECT row_to_json(t)::text AS row FROM ${quote(schema)}.${quote(name)} t`),
        ),
      );
      rows[`${schema}.${name}`] = result.map((r) => r.row).sort();
    }
    return rows;
  } finally {
    await database.close();
  }
}

/** Every blob of a DATA_DIR's file store, key to bytes. */
async function everyBlob(config: Config): Promise<Map<string, Buffer>> {
  const store = new LocalBlobStore(path.join(config.dataDir, 'blobs'));
  const blobs = new Map<string, Buffer>();
  for await (const { key } of store.list('')) {
    const content = await store.get(key);
    if (content !== null) blobs.set(key, await buffer(content.stream));
  }
  return blobs;
}

/** A member with a photo, a record with a PDF and an image, and an appointment, through the API. */
async function seed(config: Config): Promise<void> {
  const env = {
    DATA_DIR: config.dataDir,
    ...(config.databaseUrl === undefined ? {} : { DATABASE_URL: config.databaseUrl }),
  };
  const database = await openDatabase(databaseTarget(config));
  const t = await buildTestApp({ env, database });
  try {
    const factory = factories(t);
    const member = await factory.loggedInMember();
    const token = member.tokens.access;
    const png = dataUrlOf(await makePng(), 'image/png');
    const photo = await t.request('POST', oralPhotoPaths.list, {
      token,
      body: { shoot_date: '2026-03-01', photo_type: 'X-ray', note: 'Molar', image_link: png },
    });
    expect(photo.statusCode, photo.body).toBe(201);
    const record = await t.request('POST', medicalRecordPaths.list, {
      token,
      body: {
        title: 'Insurance card',
        record_date: '2026-04-02',
        note: 'Front and back',
        medical_files: [
          { file_name: 'claim.pdf', file_link: dataUrlOf(makePdf(), 'application/pdf') },
          { file_name: 'front.png', file_link: png },
        ],
      },
    });
    expect(record.statusCode, record.body).toBe(201);
    const appointmentAt = t.clock.now().getTime() + 86_400_000;
    await factory.appointment(member, {
      appointment_date: new Date(appointmentAt).toISOString(),
      note: 'Cleaning',
      email_alert: true,
      sms_alert: false,
      // One hour before: still ahead, so it is accepted and planned.
      alert_before: [Math.floor(appointmentAt / 1000) - 3600],
      time_zone: 'UTC',
    });
  } finally {
    await t.close();
  }
}

describe(`backup and restore (${info.kind})`, () => {
  let source: Config;
  let folder: string;
  beforeAll(async () => {
    source = await newPlace(true);
    await seed(source);
    folder = path.join(tmp, 'backup');
    await backup(source, folder);
    // An embedded database on disk is opened, dumped and loaded several times: slow on a busy machine.
  }, 300_000);

  it('restores into a fresh place with every row and every file byte-identical', async () => {
    const target = await newPlace(false);
    await restore(target, folder);

    const [before, after] = [await everyRow(source), await everyRow(target)];
    expect(after).toEqual(before);
    // The seed reached the backup: the member, the photo, the record's files, the appointment.
    expect(before['public.users']).toHaveLength(1);
    expect(before['public.oral_photos']).toHaveLength(1);
    expect(before['public.appointments']).toHaveLength(1);

    const [blobsBefore, blobsAfter] = [await everyBlob(source), await everyBlob(target)];
    // The photo and its thumbnail, the record's PDF and image.
    expect(blobsBefore.size).toBe(4);
    expect([...blobsAfter.keys()].sort()).toEqual([...blobsBefore.keys()].sort());
    for (const [key, bytes] of blobsBefore) expect(blobsAfter.get(key)?.equals(bytes)).toBe(true);
  }, 300_000);

  it('lists every file of the backup with its SHA-256 in the manifest', async () => {
    const manifest = JSON.parse(await readFile(path.join(folder, manifestFileName), 'utf8')) as {
      database: { kind: string };
      files: { path: string; sha256: string }[];
    };
    expect(manifest.database.kind).toBe(info.kind);
    const keys = [...(await everyBlob(source)).keys()].map((key) => `blobs/${key}`);
    expect(manifest.files.map((file) => file.path).sort()).toEqual(
      [info.kind === 'pglite' ? 'database.tar.gz' : 'database.pgdump', ...keys].sort(),
    );
    for (const file of manifest.files) expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a damaged backup before writing anything, naming the file', async () => {
    const damaged = path.join(tmp, 'damaged');
    await cp(folder, damaged, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(damaged, manifestFileName), 'utf8')) as {
      files: { path: string }[];
    };
    const blob = manifest.files.find((file) => file.path.startsWith('blobs/'))?.path ?? '';
    const file = path.join(damaged, ...blob.split('/'));
    const bytes = await readFile(file);
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    await writeFile(file, bytes);

    const target = await newPlace(false);
    await expect(restore(target, damaged)).rejects.toThrow(
      new BackupError(`${blob} does not match its SHA-256 in the manifest: the backup is damaged.`),
    );
    expect((await everyBlob(target)).size).toBe(0);
  }, 120_000);

  it('refuses a target that already holds a database, and a backup folder that is not empty', async () => {
    await expect(restore(source, folder)).rejects.toThrow(BackupError);
    await expect(backup(source, folder)).rejects.toThrow(/is not empty/);
  }, 120_000);
});
