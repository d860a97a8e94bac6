/** One row of an issue's table: what was measured, its figure when the issue was filed, its goal. */
export interface IssueFigure {
  what: string;
  filed: string;
  goal: string;
}

/** Prints an issue's figures from when it was filed and its goals, under this run's figures, so
 *  that one output holds both (the filed ones were measured on this machine by the issue's
 *  author; this run's are the ones above). */
export function printIssueFigures(issue: string, rows: IssueFigure[]): void {
  console.log(`${issue}, as filed → goal:`);
  for (const row of rows) console.log(`  ${row.what}: ${row.filed} → ${row.goal}`);
}
