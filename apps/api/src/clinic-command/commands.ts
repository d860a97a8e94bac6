import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '#api/config';
import { createBlobStore } from '#api/adapters/blob-store/create-blob-store';
import { systemClock } from '#api/clock';
import type { Database } from '#api/db/client';
import type { ErrorLogger } from '#api/logger';
import { integrityChecked } from '#api/modules/files/integrity-checked-blob-store';
import { UploadAcceptance } from '#api/modules/uploads/upload-acceptance';
import type { ClinicRepository } from '#api/modules/virtual-consultation/clinic.repository';
import { ClinicError, ClinicService } from '#api/modules/virtual-consultation/clinic.service';
import { formatInZone, parseClockTime } from '#api/modules/virtual-consultation/slots';
import {
  clinicSocketPath,
  openClinicChannel,
  type ClinicAnswer,
  type ClinicChannel,
  type ClinicRequest,
} from './channel';

/**
 * The clinic command's commands, run on a ClinicService by `npm run clinic` itself or, while the
 * server holds the embedded database, by the server for it (docs/decisions/clinic-channel.md).
 */

export const usage = `Clinic command: npm run clinic -- <command> [options]

  doctors list
  doctors add --name <name> --timezone <IANA zone, e.g. Europe/London>
  availability add --doctor <name> --weekday <mon…sun> --from <HH:mm> --to <HH:mm>
  availability clear --doctor <name>
  questions list
  questions add --label <text> [--position <n>]
  questions edit --id <question id> --label <text>
  questions move --id <question id> --position <n>
  questions remove --id <question id>
  reservations list [--period future|history] [--email <address>] [--limit <n, default 50>]
  reservations add --email <member's address> --doctor <name> --time <ISO date-time> --timezone <zone>
  summary record --reservation <id> --condition <text> --suggestion <text> --return <text>
                 [--image <file>]...

Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR (default ./data); while
the server runs on that folder, the command is carried out by the server.`;

const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const weekdayNames = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const options = {
  name: { type: 'string' },
  timezone: { type: 'string' },
  doctor: { type: 'string' },
  weekday: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  label: { type: 'string' },
  position: { type: 'string' },
  id: { type: 'string' },
  period: { type: 'string' },
  email: { type: 'string' },
  limit: { type: 'string' },
  time: { type: 'string' },
  reservation: { type: 'string' },
  condition: { type: 'string' },
  suggestion: { type: 'string' },
  return: { type: 'string' },
  image: { type: 'string', multiple: true },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof options; allowPositionals: true }>
>['values'];

function required(values: Values, name: Exclude<keyof Values, 'image'>): string {
  const value = values[name];
  if (value === undefined || value === '') throw new ClinicError(`--${name} is required.`);
  return value;
}

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new ClinicError(`--${name} must be a whole number.`);
  return Number(value);
}

function clockTime(value: string, name: string): number {
  const minutes = parseClockTime(value);
  if (minutes === null) throw new ClinicError(`--${name} must be a time like 09:30.`);
  return minutes;
}

function weekday(value: string): number {
  const index = weekdays.indexOf(value.slice(0, 3).toLowerCase());
  if (index !== -1) return index + 1;
  if (/^[1-7]$/.test(value)) return Number(value);
  throw new ClinicError('--weekday must be mon … sun (or 1 … 7).');
}

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Reads an image file for the one upload acceptance path; its type is decided by its bytes. */
async function imageFromFile(file: string, read: ReadImage) {
  const bytes = await read(file).catch(() => {
    throw new ClinicError(`${file} could not be read.`);
  });
  return {
    dataUrl: `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}`,
    fileName: path.basename(file),
  };
}

/** The bytes of an `--image` argument: from disk, or sent along to the running server. */
export type ReadImage = (file: string) => Promise<Uint8Array>;

/** The `--image` arguments of a command line (none where it does not parse). */
export function imageArguments(argv: readonly string[]): string[] {
  try {
    return (
      parseArgs({ args: [...argv], options, allowPositionals: true, strict: true }).values.image ??
      []
    );
  } catch {
    return [];
  }
}

/** Runs one command on the service; lines of output go to `print`. Throws ClinicError. */
export async function runClinicCommand(
  clinic: ClinicService,
  argv: readonly string[],
  print: (line: string) => void,
  readImage: ReadImage = readFile,
): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ClinicError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const command = positionals.join(' ');
  switch (command) {
    case 'doctors list': {
      for (const doctor of await clinic.doctors()) {
        const windows = doctor.windows
          .map(
            (w) =>
              `${weekdayNames[w.weekday - 1] ?? '?'} ${clock(w.startMinute)}-${clock(w.endMinute)}`,
          )
          .join(', ');
        print(
          `${doctor.name} (${doctor.timeZone}): ${windows === '' ? 'no availability' : windows}`,
        );
      }
      return;
    }
    case 'doctors add': {
      const id = await clinic.addDoctor(required(values, 'name'), required(values, 'timezone'));
      print(`Added doctor ${id}.`);
      return;
    }
    case 'availability add': {
      await clinic.addAvailability(required(values, 'doctor'), {
        weekday: weekday(required(values, 'weekday')),
        startMinute: clockTime(required(values, 'from'), 'from'),
        endMinute: clockTime(required(values, 'to'), 'to'),
      });
      print('Availability added.');
      return;
    }
    case 'availability clear': {
      const removed = await clinic.clearAvailability(required(values, 'doctor'));
      print(`Removed ${String(removed)} availability window(s).`);
      return;
    }
    case 'questions list': {
      (await clinic.questions()).forEach((question, index) => {
        print(`${String(index + 1)}. ${question.label}  [${question.id}]`);
      });
      return;
    }
    case 'questions add': {
      const id = await clinic.addQuestion(
        required(values, 'label'),
        wholeNumber(values.position, 'position'),
      );
      print(`Added question ${id}.`);
      return;
    }
    case 'questions edit': {
      await clinic.editQuestion(required(values, 'id'), required(values, 'label'));
      print('Question updated.');
      return;
    }
    case 'questions move': {
      const position = wholeNumber(required(values, 'position'), 'position') ?? 0;
      await clinic.moveQuestion(required(values, 'id'), position);
      print('Question moved.');
      return;
    }
    case 'questions remove': {
      await clinic.removeQuestion(required(values, 'id'));
      print('Question removed from the form; earlier answers keep it.');
      return;
    }
    case 'reservations list': {
      const period = values.period;
      if (period !== undefined && period !== 'future' && period !== 'history') {
        throw new ClinicError('--period must be future or history.');
      }
      const rows = await clinic.reservations({
        ...(period === undefined ? {} : { period }),
        ...(values.email === undefined ? {} : { email: values.email }),
        ...(values.limit === undefined ? {} : { limit: wholeNumber(values.limit, 'limit') ?? 0 }),
      });
      for (const row of rows) {
        const when = `${formatInZone(row.reservationTime, row.timeZone)} ${row.timeZone}`;
        const summary = row.hasSummary ? 'summary recorded' : 'no summary';
        print(`${row.id}  ${when}  ${row.doctorName}  ${row.email}  ${summary}`);
      }
      return;
    }
    case 'reservations add': {
      const id = await clinic.addReservation({
        email: required(values, 'email'),
        doctorName: required(values, 'doctor'),
        time: new Date(required(values, 'time')),
        timeZone: required(values, 'timezone'),
      });
      print(`Added reservation ${id}.`);
      return;
    }
    case 'summary record': {
      const images = await Promise.all(
        (values.image ?? []).map((file) => imageFromFile(file, readImage)),
      );
      const id = await clinic.recordSummary(required(values, 'reservation'), {
        condition: required(values, 'condition'),
        summary: required(values, 'suggestion'),
        returnVisit: required(values, 'return'),
        images,
      });
      print(`Recorded doctor summary ${id}.`);
      return;
    }
    default:
      throw new ClinicError(command === '' ? usage : `Unknown command "${command}".\n\n${usage}`);
  }
}

/** The clinic service over `db` with a blob store and upload path of its own; close it after. */
export function openClinicService(
  config: Config,
  db: Database,
  repository: ClinicRepository,
  log: ErrorLogger,
): { clinic: ClinicService; close: () => Promise<void> } {
  const blobs = integrityChecked(createBlobStore(config), db, log);
  const uploads = new UploadAcceptance({ log });
  return {
    clinic: new ClinicService(repository, blobs, uploads, systemClock),
    close: async () => {
      blobs.close();
      await uploads.close();
    },
  };
}

/** Runs a command sent to the server's channel, its images from the bytes sent along. */
export async function answerClinicRequest(
  clinic: ClinicService,
  request: ClinicRequest,
): Promise<ClinicAnswer> {
  const files = new Map(request.files.map((file) => [file.name, file.base64]));
  const lines: string[] = [];
  try {
    await runClinicCommand(
      clinic,
      request.argv,
      (line) => lines.push(line),
      (file) => {
        const base64 = files.get(file);
        return base64 === undefined
          ? Promise.reject(new Error('not sent'))
          : Promise.resolve(Buffer.from(base64, 'base64'));
      },
    );
    return { lines, error: null };
  } catch (error) {
    if (error instanceof ClinicError) return { lines, error: error.message };
    throw error;
  }
}

/**
 * The server's side: clinic commands sent to DATA_DIR's socket run here, on a clinic service of
 * their own; closing waits for the commands running, then closes that service.
 */
export async function serveClinicCommands(
  config: Config,
  db: Database,
  repository: ClinicRepository,
  log: Required<ErrorLogger>,
): Promise<ClinicChannel> {
  const { clinic, close } = openClinicService(config, db, repository, log);
  const channel = await openClinicChannel(
    clinicSocketPath(config.dataDir),
    (request) => answerClinicRequest(clinic, request),
    log,
  );
  return {
    close: async () => {
      await channel?.close();
      await close();
    },
  };
}
