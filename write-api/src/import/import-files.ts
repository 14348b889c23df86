import { createReadStream } from 'node:fs';
import { pipeline, Transform } from 'node:stream';
import {
  type CsvColumns,
  checkCsvHeader,
  csvColumns,
  type ImportSource,
  importMessages,
  type MappedRow,
  mapCsvRow,
  mapGithubIssue,
} from '@bugtrail/domain';
import { HttpError, type UploadSpool } from '@bugtrail/platform';
import { JSONParser } from '@streamparser/json';
import { CsvError, parse } from 'csv-parse';
import type { Context } from 'hono';

/**
 * An import's file, kept on disk while it is read twice (once to check every row, once to
 * append), so 100,000 rows never sit in memory: the body is written as it streams in,
 * counted against the limit, and watched for being UTF-8. The readers stream it back row by
 * row through `csv-parse` or `@streamparser/json`.
 */
export type SpooledFile = Readonly<{
  path: string;
  bytes: number;
  /** Not valid UTF-8: read as Windows-1252 (what Redmine writes for some languages). */
  encoding: 'utf-8' | 'windows-1252';
  remove(): Promise<void>;
}>;

/** One row of the file: its number as docs/import.md counts rows, and what it maps to. */
export type SourceRow = Readonly<{ row: number; mapped: MappedRow }>;

/** A CSV row larger than this is an unclosed quote swallowing the file, not a bug. */
const MAX_RECORD_CHARS = 5 * 1024 * 1024;

export async function spoolBody(c: Context, spool: UploadSpool, limit: number, tooLarge: string): Promise<SpooledFile> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let isUtf8 = true;
  const body = await spool.spool(c, {
    limit,
    tooLarge,
    prefix: 'bugtrail-import-',
    inspect: (chunk) => {
      if (isUtf8) {
        try {
          utf8.decode(chunk, { stream: true });
        } catch {
          isUtf8 = false;
        }
      }
      return false;
    },
  });
  if (isUtf8) {
    try {
      utf8.decode();
    } catch {
      isUtf8 = false;
    }
  }
  return { ...body, encoding: isUtf8 ? 'utf-8' : 'windows-1252' };
}

/** The file's rows, mapped, in file order. A file that is not the system's export at all throws a 400. */
export function readRows(file: SpooledFile, system: ImportSource, timeZone: string): AsyncGenerator<SourceRow> {
  return system === 'github' ? githubRows(file, timeZone) : csvRows(file, system, timeZone);
}

/** The pipelines' outcome is read from their last stream (its errors end the loops); nothing to do here. */
const ignoreEnd = () => {};

/** Bytes to text in the file's encoding, as a stream (the decoder keeps a character split across chunks). */
function decoding(encoding: SpooledFile['encoding']): Transform {
  const decoder = new TextDecoder(encoding);
  return new Transform({
    // Text out: what the decoder made, read back as strings.
    encoding: 'utf8',
    transform(chunk: Buffer, _encoding, done) {
      done(null, decoder.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
}

async function* csvRows(file: SpooledFile, system: 'redmine' | 'jira', timeZone: string): AsyncGenerator<SourceRow> {
  // pipeline, not pipe: an error anywhere (the file gone, a bad byte) reaches the loop below,
  // and leaving the loop early closes the file too.
  const parser = pipeline(
    createReadStream(file.path),
    decoding(file.encoding),
    parse({
      bom: true,
      // A row with another field count is that row's error, not the file's.
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
    }),
    ignoreEnd,
  );
  let columns: CsvColumns | null = null;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (!columns) {
        columns = csvColumns(record);
        const problem = checkCsvHeader(system, columns);
        if (problem) throw new HttpError(400, problem);
        continue;
      }
      yield { row, mapped: mapCsvRow(system, columns, record, { timeZone }) };
    }
  } catch (error) {
    if (error instanceof CsvError) throw new HttpError(400, csvProblem(error, row + 1));
    throw error;
  } finally {
    parser.destroy();
  }
  if (!columns) throw new HttpError(400, importMessages.empty);
}

function csvProblem(error: CsvError, row: number): string {
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return `Row ${row} is longer than ${MAX_RECORD_CHARS / 1024 / 1024} MB of text: is a quote left open?`;
  }
  if (error.code === 'CSV_QUOTE_NOT_CLOSED')
    return `This is not a valid CSV file: a quote opened in row ${row} is never closed`;
  return `This is not a valid CSV file (row ${row}): ${error.message}`;
}

/**
 * `gh issue list --json …`: one array of issues, read element by element. Each element is
 * a row (counted from 1); a file whose top level is not an array, or that is not JSON, is a 400.
 */
async function* githubRows(file: SpooledFile, timeZone: string): AsyncGenerator<SourceRow> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  const pending: unknown[] = [];
  let started = false;
  let row = 0;
  parser.onValue = ({ value }) => {
    pending.push(value);
  };
  const notGithub = (why: string) =>
    new HttpError(400, `This is not GitHub's issue JSON (${why}): expected the array gh issue list --json prints`);
  const stream = pipeline(createReadStream(file.path), decoding(file.encoding), ignoreEnd);
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let text = chunk;
      if (!started) {
        text = text.replace(/^[\uFEFF\s]+/, '');
        if (!text) continue;
        if (!text.startsWith('[')) throw notGithub('it does not start with [');
        started = true;
      }
      try {
        parser.write(text);
      } catch (error) {
        throw notGithub(`row ${row + pending.length + 1}: ${(error as Error).message}`);
      }
      for (const value of pending.splice(0)) yield { row: ++row, mapped: mapGithubIssue(value, { timeZone }) };
    }
    if (!started) throw new HttpError(400, importMessages.empty);
    try {
      if (!parser.isEnded) parser.end();
    } catch (error) {
      throw notGithub(`it ends too soon: ${(error as Error).message}`);
    }
    for (const value of pending.splice(0)) yield { row: ++row, mapped: mapGithubIssue(value, { timeZone }) };
  } finally {
    stream.destroy();
  }
}
