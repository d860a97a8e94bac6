import { timestamp } from 'drizzle-orm/pg-core';

/** DESIGN §3: every moment is a `timestamptz`, read as a JavaScript Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
