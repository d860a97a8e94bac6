import { problem } from '@dental/contracts';
import type { z } from 'zod';
import { ApiError, unexpectedMessage, unreachableMessage, withSession } from './api-client';
import { withViewedMember } from './viewed-record';

export interface UploadOptions {
  method: 'POST' | 'PUT';
  /** Sent as JSON, or a form (a file to import) as it is. */
  body: unknown;
  /** Share of the request body sent so far, from 0 to 1. */
  onProgress?: (sent: number) => void;
}

interface XhrAnswer {
  status: number;
  text: string;
}

/** fetch cannot report upload progress; XMLHttpRequest can. */
function sendOnce(
  path: string,
  options: UploadOptions,
  payload: string | FormData,
  access: string | null,
): Promise<XhrAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    // A write while another's record is viewed names it, so the server refuses it (never ours).
    request.open(options.method, withViewedMember(path));
    request.setRequestHeader('Accept', 'application/json');
    // A form's multipart type and boundary are the browser's to write.
    if (typeof payload === 'string') request.setRequestHeader('Content-Type', 'application/json');
    if (access !== null) request.setRequestHeader('Authorization', `Bearer ${access}`);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      resolve({ status: request.status, text: request.responseText });
    });
    request.addEventListener('error', () => {
      reject(new ApiError(0, unreachableMessage));
    });
    request.send(payload);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toApiError({ status, text }: XhrAnswer): ApiError {
  const parsed = problem.safeParse(parseJson(text));
  return parsed.success
    ? new ApiError(status, parsed.data.detail, parsed.data.errors, parsed.data.type)
    : new ApiError(status, unexpectedMessage);
}

/**
 * An authenticated call that carries a file, as JSON or as a form, and reports upload progress,
 * under the same session rules as `apiRequest` (`withSession`).
 */
export async function uploadRequest<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: UploadOptions,
): Promise<z.output<Schema>> {
  const payload = options.body instanceof FormData ? options.body : JSON.stringify(options.body);
  const answer = await withSession(
    (access) => sendOnce(path, options, payload, access),
    toApiError,
  );
  const parsed = schema.safeParse(parseJson(answer.text));
  if (!parsed.success) throw new ApiError(answer.status, unexpectedMessage);
  return parsed.data;
}
