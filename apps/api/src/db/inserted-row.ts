/** The one row an `INSERT … RETURNING` wrote; PostgreSQL always answers it, so none is a bug. */
export function insertedRow<Row>(rows: Row[]): Row {
  const [row] = rows;
  if (row === undefined) throw new Error('INSERT … RETURNING answered no row');
  return row;
}
