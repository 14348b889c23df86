/**
 * A multi-row INSERT carries one bind parameter per cell, and PostgreSQL's protocol
 * counts them in 16 bits: past 65,535 the statement cannot be sent (node-postgres
 * then waits forever). Rebuild batches are large, so bulk writes go in slices.
 */
export const ROWS_PER_STATEMENT = 1000;

export function* chunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
