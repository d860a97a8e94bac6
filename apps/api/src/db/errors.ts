/** True when a PostgreSQL unique constraint refused the write (SQLSTATE 23505), on either driver. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if ('code' in current && current.code === '23505') return true;
  }
  return false;
}
