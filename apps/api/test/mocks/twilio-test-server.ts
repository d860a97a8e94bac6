import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

/** A message as the test server received it. */
export interface ReceivedSms {
  sid: string;
  to: string;
  from: string;
  body: string;
}

export interface TwilioTestServer {
  /** Give this to TwilioSms as `baseUrl`. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** Messages accepted so far, in order. */
  received: ReceivedSms[];
  /** Answer the next `times` sends with this HTTP status and a Twilio error body. */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

// Twilio's error codes for the failures the server imitates.
const errorCodes: Record<number, number> = { 401: 20003, 404: 20404, 429: 20429, 500: 20500 };

function sendError(response: ServerResponse, status: number, code: number, message: string): void {
  sendJson(response, status, {
    code,
    message,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
  });
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A local HTTP server that speaks the part of Twilio's REST API that sending SMS uses:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with HTTP basic auth (account SID and
 * auth token) and a form body To, From, Body; it answers 201 with a Message resource as Twilio
 * does, or Twilio's error JSON. Listens on an ephemeral port of 127.0.0.1.
 */
export async function startTwilioTestServer(): Promise<TwilioTestServer> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const received: ReceivedSms[] = [];
  const failures: number[] = [];
  const messagesPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (!sameText(request.headers.authorization ?? '', expectedAuth)) {
      sendError(response, 401, 20003, 'Authenticate');
      return;
    }
    if (request.method !== 'POST' || request.url !== messagesPath) {
      sendError(response, 404, 20404, 'The requested resource was not found');
      return;
    }
    const failure = failures.shift();
    if (failure !== undefined) {
      sendError(response, failure, errorCodes[failure] ?? 20500, 'Simulated failure');
      return;
    }
    const form = new URLSearchParams(await text(request));
    const to = form.get('To');
    const from = form.get('From');
    const body = form.get('Body');
    if (to === null || from === null || body === null) {
      sendError(response, 400, 21604, "A 'To', 'From' and 'Body' parameter is required.");
      return;
    }
    const sid = `SM${randomBytes(16).toString('hex')}`;
    received.push({ sid, to, from, body });
    const now = new Date().toUTCString().replace('GMT', '+0000');
    sendJson(response, 201, {
      account_sid: accountSid,
      api_version: '2010-04-01',
      body,
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from,
      messaging_service_sid: null,
      num_media: '0',
      num_segments: '1',
      price: null,
      price_unit: 'USD',
      sid,
      status: 'queued',
      subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      to,
      uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    received,
    failNext(status, times = 1) {
      for (let i = 0; i < times; i += 1) failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
