import { z } from 'zod';

/** RFC 9457 problem details, the body of every error answer
 *  (docs/decisions/architecture.md#api-conventions). */
export const problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  /** Field name (dotted path) to its messages, for validation failures. */
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type Problem = z.infer<typeof problem>;

export const problemContentType = 'application/problem+json';
