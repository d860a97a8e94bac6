import { timestamp } from 'drizzle-orm/pg-core';

/** docs/decisions/architecture.md#stack: every moment is a `timestamptz`, read as a JavaScript
 *  Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
