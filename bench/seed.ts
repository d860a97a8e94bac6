// `npm run bench -- seed [--members N] [--photos N] …`: fills a PostgreSQL database of its own
// with members and their data, fast, through COPY (docs/decisions/scale-bench.md). The database
// is dropped and made again; the scale bench (`npm run bench -- scale`) then loads it.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openDatabase } from '../apps/api/src/db/client';
import { PasswordService } from '../apps/api/src/modules/auth/password.service';
import { auditHash } from '../apps/api/src/modules/audit/audit-hash';
import { newBlobKey, thumbnailKeyOf } from '../apps/api/src/modules/files/file-storage';

/** Every seeded member signs in with this password; its argon2id hash is computed once. */
export const seededPassword = 'Scale-bench-molar-7241';
export const seededEmail = (index: number) => `scale-${String(index)}@example.com`;

/**
 * Only databases whose name starts with this are dropped and seeded, so that a flag can never
 * point the generator at the tests' or anyone's own database.
 */
const databasePrefix = 'dental_scale';
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of the named scale database on the server of BENCH_DATABASE_URL (127.0.0.1:5432). */
export function scaleDatabaseUrl(name: string): string {
  if (!name.startsWith(databasePrefix) || !/^[a-z0-9_]+$/.test(name)) {
    throw new Error(`The scale database's name must start with ${databasePrefix} (a-z, 0-9, _).`);
  }
  const url = new URL(adminUrl);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
    throw new Error('The scale database must be on 127.0.0.1.');
  }
  url.pathname = `/${name}`;
  return url.toString();
}

interface SeedOptions {
  database: string;
  members: number;
  photos: number;
  records: number;
  appointments: number;
  reservations: number;
  /** Audit rows per member. */
  auditRows: number;
  /** Audit rows of member 0, whose activity page the bench reads at length. */
  heavyAuditRows: number;
}

function seedOptions(args: string[]): SeedOptions {
  const { values } = parseArgs({
    args,
    options: {
      database: { type: 'string', default: databasePrefix },
      members: { type: 'string', default: '2000' },
      photos: { type: 'string' },
      records: { type: 'string' },
      appointments: { type: 'string' },
      reservations: { type: 'string' },
      'audit-rows': { type: 'string', default: '10' },
      'heavy-audit-rows': { type: 'string', default: '0' },
    },
  });
  const count = (value: string | undefined, fallback: number, name: string) => {
    const parsed = value === undefined ? fallback : Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < 0) throw new Error(`--${name} takes a count.`);
    return parsed;
  };
  const members = count(values.members, 0, 'members');
  if (members < 1) throw new Error('--members takes at least 1.');
  return {
    database: values.database,
    members,
    // About what a member keeps: 20 photos and X-rays, 5 records, 3 appointments, a booking.
    photos: count(values.photos, members * 10, 'photos'),
    records: count(values.records, members * 5, 'records'),
    appointments: count(values.appointments, members * 3, 'appointments'),
    reservations: count(values.reservations, members, 'reservations'),
    auditRows: count(values['audit-rows'], 10, 'audit-rows'),
    heavyAuditRows: count(values['heavy-audit-rows'], 0, 'heavy-audit-rows'),
  };
}

/** A value in COPY's text format; the generator writes no tab, newline or backslash. */
type Cell = string | number | boolean | null;
const line = (cells: Cell[]) =>
  `${cells.map((cell) => (cell === null ? '\\N' : String(cell))).join('\t')}\n`;

/** Streams `rows` into `table` with COPY and prints the rate. */
async function copyRows(
  client: pg.Client,
  table: string,
  columns: string[],
  rows: Iterable<Cell[]>,
): Promise<number> {
  const started = performance.now();
  let count = 0;
  function* chunks(): Generator<string> {
    let chunk = '';
    for (const row of rows) {
      chunk += line(row);
      count += 1;
      if (chunk.length > 256 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk !== '') yield chunk;
  }
  await pipeline(
    Readable.from(chunks()),
    client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  ${table.padEnd(20)} ${count.toLocaleString('en-US').padStart(12)} rows  ${seconds.toFixed(1).padStart(7)} s  ${Math.round(
      count / Math.max(seconds, 0.001),
    )
      .toLocaleString('en-US')
      .padStart(10)} rows/s`,
  );
  return count;
}

/**
 * Runs `load` on `table` without its indexes and builds them again after, from their own
 * definitions: one sort per index instead of a random-page insert per row, which at 100 M audit
 * rows (a random UUID key) keeps every index page of gigabytes dirty through every checkpoint.
 */
async function indexAfterwards<T>(
  client: pg.Client,
  table: string,
  load: () => Promise<T>,
): Promise<T> {
  const { rows: constraints } = await client.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype IN ('p', 'u')`,
    [table],
  );
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition
       FROM pg_index
      WHERE indrelid = $1::regclass
        AND indexrelid NOT IN (SELECT conindid FROM pg_constraint WHERE conrelid = $1::regclass)`,
    [table],
  );
  for (const { name } of constraints) {
    await client.query(`ALTER TABLE ${table} DROP CONSTRAINT "${name}"`);
  }
  for (const { name } of indexes) await client.query(`DROP INDEX ${name}`);
  const loaded = await load();
  const started = performance.now();
  await client.query(`SET maintenance_work_mem = '1GB'`);
  for (const { name, definition } of constraints) {
    await client.query(`ALTER TABLE ${table} ADD CONSTRAINT "${name}" ${definition}`);
  }
  for (const { definition } of indexes) await client.query(definition);
  console.log(
    `  ${table}: ${String(constraints.length + indexes.length)} indexes built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return loaded;
}

const day = 24 * 60 * 60 * 1000;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** `count` rows spread over the members in turn, so each has count / members of them. */
function* spread(count: number, members: number): Generator<number> {
  for (let index = 0; index < count; index += 1) yield index % members;
}

export async function seed(args: string[]): Promise<void> {
  const options = seedOptions(args);
  const url = scaleDatabaseUrl(options.database);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${options.database}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${options.database}"`);
  } finally {
    await admin.end();
  }
  // The project's own migrations, as an API process applies them on start.
  const migrated = await openDatabase({ kind: 'postgres', url });
  await migrated.close();

  console.log(
    `Seeding ${options.database}: ${options.members.toLocaleString('en-US')} members, ${options.photos.toLocaleString('en-US')} photos and X-rays, ${options.records.toLocaleString('en-US')} records, ${options.appointments.toLocaleString('en-US')} appointments, ${options.reservations.toLocaleString('en-US')} consultation bookings, ${String(options.auditRows)} audit rows per member`,
  );
  const passwordHash = await new PasswordService().hash(seededPassword);
  const now = Date.now();
  const userIds = Array.from({ length: options.members }, () => randomUUID());
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  let total = 0;
  try {
    const createdAt = new Date(now - 400 * day).toISOString();
    total += await copyRows(
      client,
      'users',
      [
        'id',
        'email',
        'username',
        'password_hash',
        'email_confirmed_at',
        'created_at',
        'updated_at',
      ],
      userIds.map((id, index) => [
        id,
        seededEmail(index),
        `Scale ${String(index)}`,
        passwordHash,
        createdAt,
        createdAt,
        createdAt,
      ]),
    );

    // Shoot dates over the last year: the web app's default range (two months) holds about a
    // sixth of a member's photos. The rows name keys that hold no bytes: the lists sign links
    // without reading them, and nothing in the bench opens a seeded photo's image.
    total += await copyRows(
      client,
      'oral_photos',
      [
        'id',
        'user_id',
        'shoot_date',
        'photo_type',
        'note',
        'blob_key',
        'content_type',
        'size_bytes',
        'thumbnail_key',
        'thumbnail_size_bytes',
        'teeth',
      ],
      (function* () {
        let index = 0;
        for (const member of spread(options.photos, options.members)) {
          const userId = userIds[member] ?? '';
          const blobKey = newBlobKey(userId, 'oral-photo', 'jpg');
          const xRay = index % 3 === 0;
          yield [
            randomUUID(),
            userId,
            isoDate(now - ((index * 7919) % 365) * day),
            xRay ? 'X-ray' : 'Photo',
            '',
            blobKey,
            'image/jpeg',
            180_000 + (index % 50_000),
            thumbnailKeyOf(blobKey),
            9_000,
            index % 4 === 0 ? '{11,21}' : '{}',
          ];
          index += 1;
        }
      })(),
    );

    total += await copyRows(
      client,
      'medical_records',
      ['id', 'user_id', 'title', 'record_date', 'note'],
      (function* () {
        let index = 0;
        for (const member of spread(options.records, options.members)) {
          yield [
            randomUUID(),
            userIds[member] ?? '',
            index % 2 === 0 ? 'Check-up' : 'Insurance statement',
            isoDate(now - ((index * 104_729) % 730) * day),
            '',
          ];
          index += 1;
        }
      })(),
    );

    // A year back and a year ahead, so the upcoming list has rows.
    total += await copyRows(
      client,
      'appointments',
      ['id', 'user_id', 'appointment_date', 'time_zone', 'note'],
      (function* () {
        let index = 0;
        for (const member of spread(options.appointments, options.members)) {
          const offsetDays = ((index * 7_727) % 730) - 365;
          yield [
            randomUUID(),
            userIds[member] ?? '',
            new Date(now + offsetDays * day + (index % 16) * 30 * 60_000).toISOString(),
            'Europe/Berlin',
            '',
          ];
          index += 1;
        }
      })(),
    );

    // Consultation bookings need doctors; each booked slot is taken once, so the slots run on.
    const doctorIds = Array.from({ length: 20 }, () => randomUUID());
    total += await copyRows(
      client,
      'doctors',
      ['id', 'name', 'time_zone'],
      doctorIds.map((id, index) => [id, `Scale doctor ${String(index)}`, 'Europe/Berlin']),
    );
    const firstSlot = now - 200 * day;
    total += await copyRows(
      client,
      'reservations',
      ['id', 'user_id', 'doctor_id', 'time_zone', 'reservation_time', 'status', 'created_at'],
      (function* () {
        let index = 0;
        for (const member of spread(options.reservations, options.members)) {
          const slot = firstSlot + Math.floor(index / doctorIds.length) * 30 * 60_000;
          yield [
            randomUUID(),
            userIds[member] ?? '',
            doctorIds[index % doctorIds.length] ?? '',
            'Europe/Berlin',
            new Date(slot).toISOString(),
            index % 5 === 0 ? 'cancelled' : 'booked',
            new Date(slot - 7 * day).toISOString(),
          ];
          index += 1;
        }
      })(),
    );

    // Each member's chain as the API writes it: seq 1, 2, … and each hash over the previous one,
    // so `npm run audit -- verify` passes and the API's next append continues the chain.
    const auditResources = [
      'oral_photo_list',
      'medical_record_list',
      'appointment_list',
      'account',
    ] as const;
    total += await indexAfterwards(client, 'audit_events', () =>
      copyRows(
        client,
        'audit_events',
        [
          'id',
          'member_id',
          'seq',
          'at',
          'actor',
          'action',
          'resource_type',
          'resource_id',
          'result',
          'ip',
          'user_agent',
          'request_id',
          'prev_hash',
          'hash',
        ],
        (function* () {
          for (const [member, memberId] of userIds.entries()) {
            const length =
              member === 0
                ? Math.max(options.auditRows, options.heavyAuditRows)
                : options.auditRows;
            let prevHash: string | null = null;
            for (let seq = 1; seq <= length; seq += 1) {
              const row = {
                id: randomUUID(),
                memberId,
                seq,
                at: new Date(now - 400 * day + seq * 60_000),
                actor: memberId,
                action: seq === 1 ? 'sign_up' : 'read',
                resourceType: seq === 1 ? 'account' : (auditResources[seq % 4] ?? 'account'),
                resourceId: null,
                result: 'success',
                ip: '127.0.0.1',
                userAgent: 'Mozilla/5.0 (scale seed)',
                requestId: `seed-${String(seq)}`,
              };
              const hash = auditHash(prevHash, row);
              yield [
                row.id,
                memberId,
                seq,
                row.at.toISOString(),
                row.actor,
                row.action,
                row.resourceType,
                null,
                row.result,
                row.ip,
                row.userAgent,
                row.requestId,
                prevHash,
                hash,
              ];
              prevHash = hash;
            }
          }
        })(),
      ),
    );
    // Fresh statistics, as autovacuum would gather them soon after a load this size.
    const analyzeStarted = performance.now();
    await client.query('ANALYZE');
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  ANALYZE ${((performance.now() - analyzeStarted) / 1000).toFixed(1)} s; in all ${total.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${Math.round(total / seconds).toLocaleString('en-US')} rows/s)`,
    );
    const { rows } = await client.query<{ size: string }>(
      'SELECT pg_size_pretty(pg_database_size(current_database())) AS size',
    );
    console.log(`  database size ${rows[0]?.size ?? '?'}`);
  } finally {
    await client.end();
  }
}
