import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A value of a row written by COPY: arrays become `text[]` literals; a json column takes `JSON.stringify`'s text. */
export type CopyValue = string | number | boolean | Date | null | undefined | readonly (string | null)[];

/**
 * Appends rows to one of the projection's tables by COPY: several times cheaper for
 * PostgreSQL than an INSERT of the same rows from a JSON document (no JSON to take
 * apart row by row). COPY has no ON CONFLICT: only for rows the table cannot hold yet.
 */
export type BulkWriter = (
  table: string,
  columns: readonly string[],
  rows: readonly (readonly CopyValue[])[],
) => Promise<void>;

/** Text handed to the COPY stream at a time. */
const CHUNK_CHARS = 256 * 1024;
const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One field in COPY's text format. */
export function copyField(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : arrayLiteral(value);
  return COPY_SPECIAL.test(text) ? text.replace(/[\\\n\r\t]/g, (ch) => COPY_ESCAPES[ch]!) : text;
}

/** A `text[]` literal: every element quoted, so commas, braces and spaces stay inside it. */
function arrayLiteral(values: readonly (string | null)[]): string {
  const items = values.map((v) => (v === null ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`));
  return `{${items.join(',')}}`;
}

function* copyText(rows: readonly (readonly CopyValue[])[]): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) line += (i === 0 ? '' : '\t') + copyField(row[i]);
    chunk += `${line}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** A BulkWriter into `schema`'s tables on this connection (inside whatever transaction it is in). */
export function copyWriter(client: pg.PoolClient, schema: string): BulkWriter {
  return async (table, columns, rows) => {
    if (rows.length === 0) return;
    const text = `copy ${quoteId(schema)}.${quoteId(table)} (${columns.map(quoteId).join(', ')}) from stdin`;
    await pipeline(Readable.from(copyText(rows)), client.query(copyFrom(text)));
  };
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A kysely database on one connection the caller holds and releases: a rebuild batch's
 * statements and its COPYs must run on the same connection, in the same transaction.
 */
export function kyselyOnClient<DB>(client: pg.PoolClient): Kysely<DB> {
  const held = {
    query: (text: string, parameters: readonly unknown[]) => client.query(text, [...parameters]),
    release() {},
  };
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool: { connect: async () => held as never, end: async () => {} } }),
  });
}
