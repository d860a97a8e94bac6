import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { problemContentType, type Problem } from '@dental/contracts';

/** Friendly sentences for what Node's HTTP parser refuses, by its error code. */
const parserProblems: Record<string, { status: number; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'The request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request took too long to arrive.' },
  HPE_INVALID_CONTENT_LENGTH: {
    status: 400,
    detail: 'The Content-Length header of this request is not valid.',
  },
  HPE_UNEXPECTED_CONTENT_LENGTH: {
    status: 400,
    detail: 'The Content-Length header of this request is not valid.',
  },
};
const malformed = { status: 400, detail: 'This request is not valid HTTP.' };

/** A problem written straight to the socket, for requests that never reach Fastify. */
function answerAndClose(socket: Duplex, status: number, detail: string): void {
  if (socket.writable) {
    const title = STATUS_CODES[status] ?? 'Error';
    const problem: Problem = { type: 'about:blank', title, status, detail };
    const body = JSON.stringify(problem);
    socket.write(
      `HTTP/1.1 ${String(status)} ${title}\r\n` +
        `Content-Type: ${problemContentType}\r\n` +
        `Content-Length: ${String(Buffer.byteLength(body))}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

/**
 * Requests Node's HTTP parser refuses never reach Fastify's router or error handler; Fastify's
 * own fallback answers them with plain JSON. This answers them with the same RFC 9457 problem
 * as every other error (docs/decisions/problem-details.md), then closes the connection.
 */
export function clientErrorHandler(
  this: { log: FastifyBaseLogger },
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = parserProblems[error.code ?? ''] ?? malformed;
  this.log.info({ code: error.code, status }, 'rejected by the HTTP parser');
  answerAndClose(socket, status, detail);
}

/**
 * Node hands CONNECT requests to the server's 'connect' listeners instead of its request
 * handler, and destroys the socket without a word when there is none. We open no tunnels: 501
 * (docs/decisions/http-hardening.md). The target is not logged; it is whatever the client typed.
 */
export function refuseConnect(log: FastifyBaseLogger) {
  return (_request: IncomingMessage, socket: Duplex): void => {
    log.info({ method: 'CONNECT', status: 501 }, 'refused a tunnel request');
    answerAndClose(socket, 501, 'This server does not open tunnels (CONNECT).');
  };
}
