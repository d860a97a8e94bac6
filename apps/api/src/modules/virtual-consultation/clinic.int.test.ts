import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import {
  complaint as complaintSchema,
  consultationPaths,
  reservationDetail,
  splitDoctorImages,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { main, runClinicCommand, usage } from '#api/cli/clinic';
import { databaseTarget, openDatabase } from '#api/db/client';
import { complaintImages } from '#api/db/schema';
import { makePng } from '#api-test/fixtures/upload-test-files';
import { ClinicRepository } from './clinic.repository';
import { ClinicError, seedConsultations, type ClinicService } from './clinic.service';
import { clinicFor } from '#api-test/support/consultation';

const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

let t: TestApp;
let clinic: ClinicService;
let tmp: string;
let pngFile: string;

beforeAll(async () => {
  t = await buildTestApp();
  clinic = clinicFor(t.db, t.services.blobs, t.clock);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'dental-clinic-test-'));
  pngFile = path.join(tmp, 'x-ray.png');
  await writeFile(pngFile, await makePng());
});
afterAll(async () => {
  await t.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Runs a clinic command on the test database; answers its printed lines. */
async function clinicCommand(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runClinicCommand(clinic, argv, (line) => lines.push(line));
  return lines;
}

describe('seeding the embedded start', () => {
  it('adds 3 doctors with availability and one form, once', async () => {
    const repository = new ClinicRepository(t.db);
    expect(await seedConsultations(repository)).toEqual({ doctors: 3, questions: 3 });
    expect(await seedConsultations(repository)).toEqual({ doctors: 0, questions: 0 });
    const doctors = await clinic.doctors();
    expect(doctors).toHaveLength(3);
    expect(doctors.every((doctor) => doctor.windows.length > 0)).toBe(true);
    expect(await clinic.questions()).toHaveLength(3);
  });
});

describe('clinic command', () => {
  it('adds a doctor with weekly availability and lists it', async () => {
    expect(
      await clinicCommand(
        'doctors',
        'add',
        '--name',
        'Dr. Lena Vogel',
        '--timezone',
        'Europe/Berlin',
      ),
    ).toEqual([expect.stringMatching(/^Added doctor [0-9a-f-]{36}\.$/)]);
    await clinicCommand(
      'availability',
      'add',
      '--doctor',
      'dr. lena vogel',
      '--weekday',
      'tue',
      '--from',
      '09:00',
      '--to',
      '11:30',
    );
    await clinicCommand(
      'availability',
      'add',
      '--doctor',
      'Dr. Lena Vogel',
      '--weekday',
      '4',
      '--from',
      '14:00',
      '--to',
      '15:00',
    );
    expect(await clinicCommand('doctors', 'list')).toContain(
      'Dr. Lena Vogel (Europe/Berlin): Tue 09:00-11:30, Thu 14:00-15:00',
    );
    expect(await clinicCommand('availability', 'clear', '--doctor', 'Dr. Lena Vogel')).toEqual([
      'Removed 2 availability window(s).',
    ]);
  });

  it('refuses what a clinic cannot mean, with a message', async () => {
    const refusals: [string[], RegExp][] = [
      [['doctors', 'add', '--name', 'Dr. X', '--timezone', 'Moon/Base'], /not a time zone/],
      [['doctors', 'add', '--timezone', 'UTC'], /--name is required/],
      [['doctors', 'add', '--name', 'Dr. Lena Vogel', '--timezone', 'UTC'], /already exists/],
      [
        [
          'availability',
          'add',
          '--doctor',
          'Dr. Nobody',
          '--weekday',
          'mon',
          '--from',
          '09:00',
          '--to',
          '10:00',
        ],
        /No doctor is named/,
      ],
      [
        [
          'availability',
          'add',
          '--doctor',
          'Dr. Lena Vogel',
          '--weekday',
          'funday',
          '--from',
          '09:00',
          '--to',
          '10:00',
        ],
        /--weekday/,
      ],
      [
        [
          'availability',
          'add',
          '--doctor',
          'Dr. Lena Vogel',
          '--weekday',
          'mon',
          '--from',
          '9am',
          '--to',
          '10:00',
        ],
        /--from must be a time/,
      ],
      [
        [
          'availability',
          'add',
          '--doctor',
          'Dr. Lena Vogel',
          '--weekday',
          'mon',
          '--from',
          '11:00',
          '--to',
          '10:00',
        ],
        /end time must be after/,
      ],
      [['questions', 'edit', '--id', crypto.randomUUID(), '--label', 'x'], /No current question/],
      [['reservations', 'list', '--period', 'past'], /--period must be/],
      [['doctors', 'list', '--colour', 'red'], /Unknown option/],
      [['teeth', 'whiten'], /Unknown command "teeth whiten"/],
    ];
    for (const [argv, message] of refusals) {
      await expect(clinicCommand(...argv), argv.join(' ')).rejects.toThrow(message);
    }
    await expect(clinicCommand()).rejects.toThrow(new ClinicError(usage));
  });

  it('edits the form: add at a position, reword, move and remove questions', async () => {
    const before = await clinic.questions();
    const [added] = await clinicCommand(
      'questions',
      'add',
      '--label',
      'When did it start?',
      '--position',
      '1',
    );
    const id = /Added question ([0-9a-f-]{36})\./.exec(added ?? '')?.[1] ?? '';
    let listed = await clinicCommand('questions', 'list');
    expect(listed[0]).toBe(`1. When did it start?  [${id}]`);
    expect(listed).toHaveLength(before.length + 1);

    await clinicCommand('questions', 'edit', '--id', id, '--label', 'When did the pain start?');
    await clinicCommand('questions', 'move', '--id', id, '--position', String(before.length + 1));
    listed = await clinicCommand('questions', 'list');
    expect(listed.at(-1)).toBe(`${String(before.length + 1)}. When did the pain start?  [${id}]`);

    await clinicCommand('questions', 'remove', '--id', id);
    expect((await clinic.questions()).map((q) => q.id)).toEqual(before.map((q) => q.id));
    await expect(clinicCommand('questions', 'move', '--id', id, '--position', '1')).rejects.toThrow(
      /No current question/,
    );
  });

  it('records a past consultation and its doctor summary with an image the patient then sees', async () => {
    const factory = factories(t);
    const member = await factory.loggedInMember();
    const past = new Date(t.clock.now().getTime() - 3 * 24 * 60 * 60 * 1000);
    past.setUTCMinutes(0, 0, 0);
    const [added] = await clinicCommand(
      'reservations',
      'add',
      '--email',
      member.email.toUpperCase(),
      '--doctor',
      'Dr. Lena Vogel',
      '--time',
      past.toISOString(),
      '--timezone',
      'Europe/Berlin',
    );
    const reservationId = /Added reservation ([0-9a-f-]{36})\./.exec(added ?? '')?.[1] ?? '';
    await expect(
      clinicCommand(
        'reservations',
        'add',
        '--email',
        member.email,
        '--doctor',
        'Dr. Lena Vogel',
        '--time',
        past.toISOString(),
        '--timezone',
        'UTC',
      ),
    ).rejects.toThrow(/already booked/);
    await expect(
      clinicCommand(
        'reservations',
        'add',
        '--email',
        'nobody@example.com',
        '--doctor',
        'Dr. Lena Vogel',
        '--time',
        past.toISOString(),
        '--timezone',
        'UTC',
      ),
    ).rejects.toThrow(/No member/);

    expect(
      await clinicCommand('reservations', 'list', '--period', 'history', '--email', member.email),
    ).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${reservationId} .*Europe/Berlin  Dr\\. Lena Vogel  ${member.email}  no summary$`,
        ),
      ),
    ]);

    const notAnImage = path.join(tmp, 'notes.txt');
    await writeFile(notAnImage, 'plain text');
    const summaryArgs = [
      'summary',
      'record',
      '--reservation',
      reservationId,
      '--condition',
      'Early caries',
      '--suggestion',
      'Fluoride toothpaste twice a day.',
      '--return',
      'In 3 months',
    ];
    await expect(clinicCommand(...summaryArgs, '--image', notAnImage)).rejects.toThrow(
      /^notes\.txt: Unsupported file type/,
    );
    expect(await t.db.select().from(complaintImages)).toEqual([]);

    await clinicCommand(...summaryArgs, '--image', pngFile);
    const [firstImage] = await t.db.select().from(complaintImages);
    await clinicCommand(...summaryArgs, '--image', pngFile, '--image', pngFile);
    // The replaced image is gone from the store; the new ones are there.
    expect(await t.services.blobs.exists(firstImage?.blobKey ?? '')).toBe(false);

    const detail = reservationDetail.parse(
      (
        await t.request('GET', consultationPaths.reservation(reservationId), {
          token: member.tokens.access,
        })
      ).json(),
    );
    expect(detail.upcoming).toBe(false);
    const res = await t.request('GET', consultationPaths.complaint(detail.complaint_id ?? ''), {
      token: member.tokens.access,
    });
    const summary = complaintSchema.parse(res.json());
    expect(summary).toMatchObject({
      doctor_condition: 'Early caries',
      doctor_summary: 'Fluoride toothpaste twice a day.',
      doctor_return: 'In 3 months',
    });
    const links = splitDoctorImages(summary.doctor_images);
    expect(links).toHaveLength(2);
    const image = await t.request('GET', links[0] ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(await clinicCommand('reservations', 'list', '--email', member.email)).toEqual([
      expect.stringMatching(/summary recorded$/),
    ]);
  });

  it('records no summary for a consultation that has not happened yet', async () => {
    const factory = factories(t);
    const member = await factory.member();
    const future = new Date(t.clock.now().getTime() + 2 * 24 * 60 * 60 * 1000);
    const [added] = await clinicCommand(
      'reservations',
      'add',
      '--email',
      member.email,
      '--doctor',
      'Dr. Lena Vogel',
      '--time',
      future.toISOString(),
      '--timezone',
      'UTC',
    );
    const id = /([0-9a-f-]{36})/.exec(added ?? '')?.[1] ?? '';
    await expect(
      clinicCommand(
        'summary',
        'record',
        '--reservation',
        id,
        '--condition',
        'a',
        '--suggestion',
        'b',
        '--return',
        'c',
      ),
    ).rejects.toThrow(/once the consultation has taken place/);
    await expect(
      clinicCommand(
        'summary',
        'record',
        '--reservation',
        crypto.randomUUID(),
        '--condition',
        'a',
        '--suggestion',
        'b',
        '--return',
        'c',
      ),
    ).rejects.toThrow(/No booked reservation/);
  });
});

/** A database of its own for the command run as a program: PGlite in a folder, or PostgreSQL. */
async function ownDatabaseEnv(
  dataDir: string,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const info = inject('testDatabase');
  const base = { DATA_DIR: dataDir, TOKEN_SECRET: randomBytes(32).toString('base64url') };
  if (info.kind === 'pglite') return { env: base, drop: () => Promise.resolve() };
  const name = `${info.template.replace(/_template$/, '')}_clinic_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: info.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${info.template}"`);
  await admin.end();
  const url = new URL(info.adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { ...base, DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: info.adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

describe('npm run clinic (the program)', () => {
  it('works on its own database as a child process and reports errors with exit code 1', async () => {
    const dataDir = path.join(tmp, 'program-data');
    const { env, drop } = await ownDatabaseEnv(dataDir);
    const run = (...argv: string[]) =>
      execFileAsync(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/clinic.ts', ...argv], {
        cwd: repoRoot,
        env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
      });
    try {
      const added = await run('doctors', 'add', '--name', 'Dr. Child', '--timezone', 'Asia/Tokyo');
      expect(added.stdout).toMatch(/^Added doctor /);
      // A second process sees what the first one wrote.
      expect((await run('doctors', 'list')).stdout).toBe(
        'Dr. Child (Asia/Tokyo): no availability\n',
      );
      await expect(
        run('doctors', 'add', '--name', 'Dr. Child', '--timezone', 'UTC'),
      ).rejects.toMatchObject({
        code: 1,
        stderr: 'A doctor named Dr. Child already exists.\n',
      });
    } finally {
      await drop();
    }
  }, 120_000);

  it('refuses to open the embedded database while another process has it open', async () => {
    const dataDir = path.join(tmp, 'busy-data');
    await mkdir(dataDir, { mode: 0o700 });
    const server = await openDatabase(databaseTarget({ databaseUrl: undefined, dataDir }));
    try {
      const errors: string[] = [];
      const code = await main(
        ['doctors', 'list'],
        { DATA_DIR: dataDir, TOKEN_SECRET: randomBytes(32).toString('base64url') },
        () => undefined,
        (line) => errors.push(line),
      );
      expect(code).toBe(1);
      expect(errors.join('\n')).toMatch(
        new RegExp(
          `DATA_DIR ${dataDir} is in use by process ${String(process.pid)} .* stop that process`,
        ),
      );
    } finally {
      await server.close();
    }
  }, 180_000);
});
