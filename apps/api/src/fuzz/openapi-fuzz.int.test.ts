import { performance } from 'node:perf_hooks';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  medicalRecordPaths,
  oralPhotoPaths,
  problemContentType,
  type MedicalRecord,
  type OralPhoto,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import type { FieldHints } from '#api-test/fuzz/json-schema-arbitrary';
import {
  operationsOf,
  requestsFor,
  type FuzzRequest,
  type OpenApiDocument,
  type Operation,
} from '#api-test/fuzz/openapi-requests';

// Requests built from the served OpenAPI document, valid and invalid, signed in as a member with
// data (docs/decisions/api-fuzz.md). `npm run fuzz -- --runs 100000` runs it long; in `npm test`
// a fixed seed keeps it to a few thousand requests.
const runs = Number(process.env.FUZZ_RUNS ?? 2000);
const seed = Number(process.env.FUZZ_SEED ?? 20261128);
const slowMs = 5000;

/**
 * Operations that end the signed-in session (or the account) run as a fresh member each time,
 * so they are fuzzed without signing the member with data out of the rest of the run.
 */
const endsTheSession = new Set([
  'DELETE /api/account/',
  'DELETE /api/account/sessions/',
  'DELETE /api/account/sessions/{id}/',
  'POST /api/account/logout/',
  'POST /api/account/password/',
  'POST /api/account/mfa/totp/confirm/',
]);
/**
 * 5xx answers an operation declares for a state outside the request (a service not configured, a
 * model busy): they must still be problem details.
 */
const declaredUnavailable = 503;

let t: TestApp;
let factory: ReturnType<typeof factories>;
let token: string;
let hints: FieldHints;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  const member = await factory.loggedInMember();
  token = member.tokens.access;
  const png = dataUrlOf(await makePng(), 'image/png');
  const signedIn = { token };
  const appointments = await Promise.all(
    ['2026-12-01T09:00:00Z', '2025-06-01T09:00:00Z'].map((appointment_date) =>
      factory.appointment(member, { appointment_date }),
    ),
  );
  const photo = (
    await t.request('POST', oralPhotoPaths.list, {
      ...signedIn,
      body: { shoot_date: '2026-03-01', photo_type: 'X-ray', image_link: png, teeth: [36] },
    })
  ).json<OralPhoto>();
  const record = (
    await t.request('POST', medicalRecordPaths.list, {
      ...signedIn,
      body: {
        title: 'Check-up',
        record_date: '2026-04-02',
        medical_files: [{ file_name: 'x.png', file_link: png }],
      },
    })
  ).json<MedicalRecord>();
  const ids = [photo.id, record.id, ...appointments.map(({ id }) => id)];
  hints = {
    id: fc.constantFrom(...ids),
    fileId: fc.constantFrom(...record.medical_files.map(({ id }) => id)),
    image_link: fc.constant(png),
    file_link: fc.constant(png),
  };
});
afterAll(() => t.close());

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const validators = new Map<string, ValidateFunction | undefined>();

/** The declared JSON schema of an operation's answer with this status, compiled once. */
function answerSchema(operation: Operation, status: number): ValidateFunction | undefined {
  const key = `${operation.method} ${operation.path} ${String(status)}`;
  if (!validators.has(key)) {
    const schema = operation.responses[String(status)]?.content?.['application/json']?.schema;
    validators.set(key, schema === undefined ? undefined : ajv.compile(schema));
  }
  return validators.get(key);
}

/**
 * Whether the operation declares this status as a page for the browser (a text body, not an
 * object): the full-page checkout steps answer an HTML 404 instead of problem details.
 */
function declaresPage(operation: Operation, status: number): boolean {
  const declared = operation.responses[String(status)]?.content?.['application/json']?.schema;
  return declared?.type === 'string';
}

const operationName = ({ method, path }: Operation) => `${method} ${path}`;

async function tokenFor(operation: Operation): Promise<string> {
  if (!endsTheSession.has(operationName(operation))) return token;
  return (await factory.loggedInMember()).tokens.access;
}

/** What is wrong with the answer to a request, or undefined when nothing is. */
async function check(request: FuzzRequest): Promise<string | undefined> {
  const { operation, url, body } = request;
  const started = performance.now();
  const answer = await Promise.race([
    t.app.inject({
      method: operation.method,
      url,
      headers: {
        authorization: `Bearer ${await tokenFor(operation)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    }),
    new Promise<undefined>((resolve) => {
      setTimeout(() => {
        resolve(undefined);
      }, slowMs).unref();
    }),
  ]);
  if (answer === undefined) return `no answer within ${String(slowMs)} ms`;
  const elapsed = performance.now() - started;
  statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
  if (elapsed > slowMs) return `answered after ${elapsed.toFixed(0)} ms`;
  const type = String(answer.headers['content-type'] ?? '');
  const { statusCode: status } = answer;
  if (status >= 400) {
    if (!type.startsWith(problemContentType)) {
      return declaresPage(operation, status) && type.startsWith('text/html')
        ? undefined
        : `${String(status)} as ${type}`;
    }
    const problem = answer.json<{ status?: unknown }>();
    if (problem.status !== status) return `${String(status)} whose problem says ${answer.body}`;
    if (status >= 500 && status !== declaredUnavailable) return `${String(status)} ${answer.body}`;
    if (status >= 500 && operation.responses[String(status)] === undefined) {
      return `undeclared ${String(status)} ${answer.body}`;
    }
    return undefined;
  }
  if (status < 200 || status >= 300 || !type.startsWith('application/json')) return undefined;
  if (operation.responses[String(status)] === undefined) return `undeclared ${String(status)}`;
  const validate = answerSchema(operation, status);
  if (validate !== undefined && !validate(answer.json())) {
    return `${String(status)} does not match its schema: ${ajv.errorsText(validate.errors)}`;
  }
  return undefined;
}

const statuses = new Map<number, number>();

const shown = (value: unknown) => {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}… (${String(text.length)} characters)` : text;
};

it(
  `answers ${String(runs)} generated requests without a 5xx, a hang or a wrong shape`,
  {
    timeout: Math.max(120_000, runs * 100),
  },
  async () => {
    const document = t.app.swagger() as unknown as OpenApiDocument;
    const operations = operationsOf(document);
    // Every operation gets its share of the runs, so none is left out by chance.
    const runsPerOperation = Math.max(1, Math.ceil(runs / operations.length));
    const failures: string[] = [];
    let sent = 0;
    for (const [index, operation] of operations.entries()) {
      const sample = fc.sample(requestsFor(operation, hints), {
        seed: seed + index,
        numRuns: runsPerOperation,
      });
      for (const request of sample) {
        sent += 1;
        const failure = await check(request);
        if (failure !== undefined) {
          failures.push(
            `${request.operation.method} ${shown(request.url)} body ${shown(request.body)}: ${failure}`,
          );
        }
      }
    }
    const figures = {
      seed,
      requests: sent,
      operations: operations.length,
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      failures: failures.length,
    };
    console.info(`API fuzz: ${JSON.stringify(figures)}`);
    expect(failures.slice(0, 20)).toEqual([]);
  },
);
