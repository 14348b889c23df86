import { ConflictError, type LabelRef, type LabelState, labelMessages, labelNameKey } from '@bugtrail/domain';
import type pg from 'pg';

/**
 * The labels that exist, as the write side keeps them (`write_api.labels`, ADR 026): written in
 * the transaction of each label event (this file is the table's one writer), read by the bug
 * decisions that put labels on (which exist) and by the bug answers (their names and colours).
 * A name belongs to one label among those not deleted, whatever its case: a second one is 409.
 */
export class LabelTable {
  constructor(private readonly db: pg.Pool | pg.ClientBase) {}

  /** The label as the decided state has it; its name taken or kept, else 409 "Label already exists". */
  static async write(tx: pg.ClientBase, state: LabelState): Promise<void> {
    try {
      await tx.query(
        `insert into write_api.labels (id, name, name_key, color, deleted) values ($1, $2, $3, $4, $5)
         on conflict (id) do update set name = excluded.name, name_key = excluded.name_key, color = excluded.color,
           deleted = excluded.deleted`,
        [state.id, state.name, labelNameKey(state.name), state.color, state.deleted],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new ConflictError(labelMessages.exists);
      throw error;
    }
  }

  /** Whether a label other than `exceptId` that exists has this name (any case): the refusal before an append. */
  async nameTaken(name: string, exceptId?: string): Promise<boolean> {
    const { rows } = await this.db.query(
      'select 1 from write_api.labels where name_key = $1 and not deleted and id <> $2',
      [labelNameKey(name), exceptId ?? ''],
    );
    return rows.length > 0;
  }

  /** Which of `ids` are labels that exist. */
  async existing(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<{ id: string }>(
      'select id from write_api.labels where id = any($1::text[]) and not deleted',
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** Names and colours of the labels that exist among `ids`, for a bug's answer. */
  async refs(ids: readonly string[]): Promise<Map<string, LabelRef>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.db.query<{ id: string; name: string; color: string }>(
      'select id, name, color from write_api.labels where id = any($1::text[]) and not deleted',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, { _id: r.id, name: r.name, color: r.color }]));
  }
}
