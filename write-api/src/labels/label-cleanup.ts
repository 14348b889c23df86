import { randomUUID } from 'node:crypto';
import { type Actor, type BugState, bugStreamDecider, decideDropDeletedLabel, streams } from '@bugtrail/domain';
import type { CommandHandler } from '@bugtrail/eventstore';
import type pg from 'pg';

/**
 * A deleted label leaves every bug by an event of that bug (api.md "Labels": "removes it from
 * every bug, as events"), so each bug's history, webhooks and analytics say so. Which bugs carry
 * a label is `write_api.bug_labels`, written in the transaction of every change to a bug's labels
 * (ADR 026). The delete's request takes the label off its bugs before it answers; each removal's
 * event id derives from the label and the bug, so a second pass appends nothing twice. What a
 * crash left undone is finished at the next start (`finishLabelCleanup`).
 */
const dropDecider = bugStreamDecider(decideDropDeletedLabel);

/** The bug's labels as the decided state has them. */
export async function writeBugLabels(tx: pg.ClientBase, state: BugState): Promise<void> {
  if (state.kind !== 'reported') return;
  await tx.query(
    `with gone as (delete from write_api.bug_labels where bug_id = $1 and not (label_id = any($2::text[])))
     insert into write_api.bug_labels (bug_id, label_id) select $1, unnest($2::text[]) on conflict do nothing`,
    [state.id, state.labelIds],
  );
}

/** Takes the deleted label off every bug that still carries it; answers how many lost it, and the last event's position. */
export async function dropDeletedLabel(
  pool: pg.Pool,
  commands: CommandHandler,
  labelId: string,
  actor: Actor | null,
): Promise<{ dropped: number; last: string | null }> {
  const { rows } = await pool.query<{ bug_id: string }>(
    'select bug_id from write_api.bug_labels where label_id = $1 order by bug_id',
    [labelId],
  );
  let dropped = 0;
  let last: string | null = null;
  for (const { bug_id: bugId } of rows) {
    const handled = await commands.handle(
      streams.bug(bugId),
      dropDecider,
      { type: 'DropDeletedLabel', data: { bugId, labelId }, metadata: { actor, now: new Date().toISOString() } },
      { actor, correlationId: randomUUID(), idempotencyKey: null },
      {
        retryOnConflict: true,
        naturalKey: `label-deleted:${labelId}:${bugId}`,
        alongside: (tx, { state }) => writeBugLabels(tx, state),
      },
    );
    if (handled.newEvents.length > 0 && !handled.replayed) dropped++;
    if (handled.position && (last === null || handled.position > last)) last = handled.position;
    // A bug deleted (or never reported) keeps no row: nothing will take it off.
    else await pool.query('delete from write_api.bug_labels where bug_id = $1 and label_id = $2', [bugId, labelId]);
  }
  return { dropped, last };
}

/** At start: the deleted labels some bug still carries (a delete cut short), taken off. */
export async function finishLabelCleanup(pool: pg.Pool, commands: CommandHandler): Promise<void> {
  const { rows } = await pool.query<{ id: string }>(
    `select distinct l.id from write_api.labels l join write_api.bug_labels b on b.label_id = l.id where l.deleted`,
  );
  for (const { id } of rows) await dropDeletedLabel(pool, commands, id, null);
}
