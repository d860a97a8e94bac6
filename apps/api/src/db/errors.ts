function hasSqlState(error: unknown, code: string): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if ('code' in current && current.code === code) return true;
  }
  return false;
}

/** True when a PostgreSQL unique constraint refused the write (SQLSTATE 23505), on either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, '23505');
}

/** True when a row the write refers to is gone (SQLSTATE 23503), on either driver. */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasSqlState(error, '23503');
}
