import { streams } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import type { Kysely, Transaction } from 'kysely';
import type { ReadModelDb } from '../schema.js';
import type { BulkWriter } from './copy.js';

export type ProjectionContext = Readonly<{
  /** The batch's transaction: rows and checkpoint commit together. Write through `db.withSchema(schema)`. */
  db: Transaction<ReadModelDb>;
  /** Where this projection's tables live: `rm` live, another schema during a rebuild. */
  schema: string;
  /** Topics changed by this batch (`bug:{id}`, `dashboard`, `user:{id}`, ...). */
  topics: Set<string>;
  /**
   * Set in rebuilds (fresh tables, batches of thousands): rows the tables cannot hold yet
   * go faster by COPY than by INSERT, in the same transaction. Live batches have none.
   */
  copy?: BulkWriter;
}>;

/**
 * A read model: its tables, and how a batch of events changes them. `apply` sees
 * every event after its checkpoint (it ignores the types it does not handle) and
 * should touch the database per batch, not per event: rebuilds replay millions.
 */
export interface Projection {
  readonly name: string;
  /** Bump when the tables or the handler change: the projection is rebuilt at start. */
  readonly version: number;
  /** The tables it owns, in creation order. */
  readonly tables: readonly string[];
  createTables(db: Kysely<ReadModelDb>, schema: string): Promise<void>;
  /**
   * Indexes only the readers need (`apply` must not rely on them). A rebuild builds them
   * once after its bulk replay, which costs far less than keeping them up row by row;
   * a new projection gets them right after its tables.
   */
  createIndexes?(db: Kysely<ReadModelDb>, schema: string): Promise<void>;
  apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void>;
}

export const READ_MODEL_SCHEMA = 'rm';

/**
 * The bugs whose stream begins in this batch (their report, revision 0, is in it):
 * nothing of theirs can be stored yet, so a projection need not look for their rows.
 */
export function bugsBornIn(events: readonly RecordedEvent[]): Set<string> {
  const born = new Set<string>();
  for (const e of events) {
    if (e.revision !== 0 || e.type !== 'BugReported') continue;
    const bugId = (e.data as { bugId?: unknown }).bugId;
    if (typeof bugId === 'string' && e.streamId === streams.bug(bugId)) born.add(bugId);
  }
  return born;
}
