import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemContentType, type Problem } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Sends raw bytes, as no HTTP client would, and reads the answer until the server closes. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => {
      resolve(answer);
    });
    socket.on('error', reject);
    socket.end(text);
  });
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function expectProblem(answer: ReturnType<typeof parse>, problem: Problem) {
  expect(answer.status).toBe(problem.status);
  expect(answer.headers['content-type']).toBe(problemContentType);
  expect(JSON.parse(answer.body)).toEqual(problem);
}

describe('errors before routing are problems too', () => {
  it('answers a Content-Length that is not a number with a 400 problem', async () => {
    const answer = parse(
      await rawRequest(
        'POST /api/account/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: ten\r\n\r\n{}',
      ),
    );
    expectProblem(answer, {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The Content-Length header of this request is not valid.',
    });
  });

  it('answers oversized headers with a 431 problem', async () => {
    const answer = parse(
      await rawRequest(
        `GET /api/config/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toBe(problemContentType);
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 431,
      detail: 'The request headers are too large.',
    });
  });

  it('answers a request line that is not HTTP with a 400 problem', async () => {
    const answer = parse(await rawRequest('HELLO THERE\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe(problemContentType);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400 });
  });
});

describe('methods the API does not serve get an answer (docs/decisions/http-hardening.md)', () => {
  it.each(['example.com:443', '127.0.0.1:22'])(
    'answers CONNECT %s with a 501 problem instead of dropping the connection',
    async (target) => {
      const answer = parse(
        await rawRequest(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
      );
      expectProblem(answer, {
        type: 'about:blank',
        title: 'Not Implemented',
        status: 501,
        detail: 'This server does not open tunnels (CONNECT).',
      });
    },
  );

  it.each(['TRACE', 'PROPFIND', 'SEARCH', 'PATCH'])(
    'answers %s with a 404 problem',
    async (method) => {
      const answer = parse(
        await rawRequest(`${method} /api/config/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toContain(problemContentType);
    },
  );
});
