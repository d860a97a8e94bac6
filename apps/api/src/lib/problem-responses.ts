import { problem } from '@dental/contracts';

/** The problem document as the response schema of each error status, for the OpenAPI description. */
export function problems<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((status) => [status, problem])) as Record<
    S[number],
    typeof problem
  >;
}
