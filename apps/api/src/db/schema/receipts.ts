import { pgSequence } from 'drizzle-orm/pg-core';

/** The running part of every receipt number, whatever was bought (docs/decisions/receipts.md). */
export const receiptNumbers = pgSequence('receipt_numbers', { startWith: 1 });
