import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** An unset variable and an empty one (`PORT=` in an env file) both mean "use the default". */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const positiveInt = (name: string) =>
  z.coerce.number().int(`${name} must be a whole number.`).positive(`${name} must be above 0.`);

export const fraction = (name: string) =>
  z.coerce
    .number(`${name} must be a number.`)
    .gt(0, `${name} must be above 0.`)
    .lt(1, `${name} must be below 1.`);

/** A TCP port from `lowest` (0 lets the system pick one) to 65535. */
export const portNumber = (name: string, lowest: 0 | 1) =>
  z.coerce
    .number()
    .int(`${name} must be a whole number.`)
    .min(lowest)
    .max(65535, `${name} is at most 65535.`);

export const httpUrl = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http:// or https:// URL.` });
