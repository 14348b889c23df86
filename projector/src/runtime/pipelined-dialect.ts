import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/**
 * A kysely database for the projector's batch transactions that sends a batch in a few
 * round trips instead of one per statement. A write whose answer nobody reads (an
 * insert, update or delete without `returning`, or a statement marked `/* deferred *\/`)
 * is held and answered at once with no rows; the next statement whose answer is read
 * (a select, a `returning`, the commit) goes out together with everything held, as one
 * multi-statement message with the values inlined as escaped literals. The statements
 * still run one after another, in program order, in the one transaction.
 *
 * A held write that fails makes the message it went out with fail: the transaction is
 * rolled back whole, as it would be had the write failed on its own.
 *
 * Only for transactions of statements the code builds itself (kysely or `sql` with
 * parameters): text with dollar quotes or E'' strings is sent on its own, with its
 * parameters, never inlined.
 */
export function createPipelinedDb<DB>(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PipelinedDialect(pool) });
}

class PipelinedDialect implements Dialect {
  constructor(private readonly pool: pg.Pool) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PipelinedDriver(this.pool);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

class PipelinedDriver implements Driver {
  constructor(private readonly pool: pg.Pool) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PipelinedConnection(await this.pool.connect());
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as PipelinedConnection).hold('begin');
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).send('commit', []);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).rollback();
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PipelinedConnection).release();
  }
  async destroy(): Promise<void> {}
}

type Statement = { text: string; parameters: readonly unknown[] };

const HELD_WRITE = /^\s*(insert|update|delete)\b/i;
const RETURNING = /\breturning\b/i;
const DEFERRED_MARK = /^\s*\/\* deferred \*\//;
/** Beyond this much text a batch goes statement by statement, with parameters. */
const MAX_INLINED_CHARS = 64 * 1024;
/** Dollar quotes and E'' strings: their insides could look like parameters. */
const NOT_INLINABLE = /\$[A-Za-z_]*\$|(^|[^A-Za-z0-9_'"])[Ee]'/;

class PipelinedConnection implements DatabaseConnection {
  private held: Statement[] = [];
  /** Whether `begin` reached the server (a rollback before that has nothing to undo). */
  private begun = false;
  private broken = false;

  constructor(private readonly client: pg.PoolClient) {}

  hold(text: string, parameters: readonly unknown[] = []): void {
    this.held.push({ text, parameters });
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (DEFERRED_MARK.test(query.sql) || (HELD_WRITE.test(query.sql) && !RETURNING.test(query.sql))) {
      this.hold(query.sql, query.parameters);
      return { rows: [] };
    }
    return this.send(query.sql, query.parameters);
  }

  /** Sends what is held and then this statement; answers this statement's result. */
  async send<R>(text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const batch = [...this.held, { text, parameters }];
    this.held = [];
    if (batch.some((s) => s.text.trim() === 'begin')) this.begun = true;
    try {
      const texts = batch.length === 1 ? null : inlineAll(batch);
      if (!texts) {
        let last: pg.QueryResult | undefined;
        for (const s of batch) last = await this.client.query(s.text, [...s.parameters]);
        return toResult<R>(last!);
      }
      // Each statement ends on a line of its own: a trailing `--` comment cannot swallow the `;`.
      const results = (await this.client.query(texts.join('\n;\n'))) as unknown as pg.QueryResult | pg.QueryResult[];
      return toResult<R>(Array.isArray(results) ? results[results.length - 1]! : results);
    } catch (error) {
      this.broken = true;
      throw error;
    }
  }

  async rollback(): Promise<void> {
    this.held = [];
    if (this.begun) await this.client.query('rollback');
  }

  release(): void {
    // A connection whose message failed halfway is not handed to anyone else.
    this.client.release(this.broken ? true : undefined);
  }

  // biome-ignore lint/correctness/useYield: batch transactions never stream
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the pipelined projector connection does not stream');
  }
}

function toResult<R>(result: pg.QueryResult): QueryResult<R> {
  const command = result.command;
  const affected =
    command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
      ? BigInt(result.rowCount ?? 0)
      : undefined;
  return { rows: (result.rows ?? []) as R[], ...(affected === undefined ? {} : { numAffectedRows: affected }) };
}

/**
 * The batch's statements with their values inlined; null when one cannot be, or when the
 * batch is large (a catch-up's thousand events): PostgreSQL scans a long literal far slower
 * than it binds the same value as a parameter, and a round trip is cheap beside it.
 */
function inlineAll(batch: readonly Statement[]): string[] | null {
  let size = 0;
  const texts: string[] = [];
  for (const statement of batch) {
    if (statement.parameters.length > 0 && NOT_INLINABLE.test(statement.text)) return null;
    const text = inline(statement);
    size += text.length;
    if (size > MAX_INLINED_CHARS) return null;
    texts.push(text);
  }
  return texts;
}

/** The statement with `$n` replaced by its value as a literal (quoted strings and identifiers are left alone). */
export function inline({ text, parameters }: Statement): string {
  if (parameters.length === 0) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      let end = i + 1;
      for (;;) {
        end = text.indexOf(ch, end);
        if (end < 0) throw new Error('unterminated quote in a pipelined statement');
        if (text[end + 1] === ch) end += 2;
        else break;
      }
      out += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (ch === '$') {
      const digits = /^\d+/.exec(text.slice(i + 1));
      if (digits) {
        const index = Number(digits[0]) - 1;
        if (index < 0 || index >= parameters.length) throw new Error(`no value for $${digits[0]}`);
        out += literal(parameters[index]);
        i += 1 + digits[0].length;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return out;
}

/** A value as pg would send it, written as an escaped SQL literal (untyped, like a parameter). */
function literal(value: unknown): string {
  const prepared = pgUtils.prepareValue(value) as string | Buffer | null | undefined;
  if (prepared === null || prepared === undefined) return 'NULL';
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString('hex')}'::bytea`;
  return pg.escapeLiteral(prepared);
}
