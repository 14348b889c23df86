import { ConflictError, projectMessages } from '@bugtrail/domain';
import type pg from 'pg';

/**
 * Every key a project has ever had (`write_api.project_keys`), and whose it is: a key is
 * given once, so `WEB-7` names one bug for good, after a new key too. This file is the
 * table's one writer: a key is claimed in the transaction of the event that takes it
 * (`alongside`, ADR 026), so a refused append leaves no key behind.
 */

/** The project a key (current or earlier) belongs to, or null. */
export async function projectOfKey(db: pg.Pool | pg.ClientBase, key: string): Promise<string | null> {
  const { rows } = await db.query<{ project_id: string }>(
    'select project_id from write_api.project_keys where key = $1',
    [key],
  );
  return rows[0]?.project_id ?? null;
}

/**
 * Takes `key` for `projectId`, with the append of the event that gives it. Taking back one
 * of its own earlier keys is fine; another project's, now or before, is 409. Two projects
 * taking one key at once: the second waits on the first's row, then is refused.
 */
export async function claimProjectKey(tx: pg.ClientBase, key: string, projectId: string): Promise<void> {
  const inserted = await tx.query(
    'insert into write_api.project_keys (key, project_id) values ($1, $2) on conflict (key) do nothing',
    [key, projectId],
  );
  if (inserted.rowCount === 1) return;
  if ((await projectOfKey(tx, key)) !== projectId) throw new ConflictError(projectMessages.keyTaken);
}
