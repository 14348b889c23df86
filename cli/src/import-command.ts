import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Readable, Transform } from 'node:stream';
import {
  IMPORT_STREAM_TYPE,
  type ImportAnswer,
  type ImportSource,
  type ImportStreamLine,
  importSourceLabels,
  importSources,
} from '@bugtrail/domain';

/**
 * `bugtrail import FILE --from redmine|jira|github [--project KEY] [--dry-run] [--skip-invalid] [--json]
 * [--url URL] [--token btp_…]`: the same import as the web page, through the same
 * `POST /api/import`, from the shell. The file is streamed (never read whole); progress goes
 * to stderr (the upload, then the appends), the answer to stdout. An admin's write API
 * token acts for the admin (Profile → Tokens), so the server checks the role as for anyone.
 * Exit 0 when every row was good (or skipped with --skip-invalid), 1 otherwise.
 */

export type ImportIo = Readonly<{
  out: (line: string) => void;
  /** Progress and problems; `isTTY` rewrites one progress line in place. */
  err: (text: string) => void;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
}>;

export const importUsage =
  'usage: bugtrail import FILE --from redmine|jira|github [--project KEY] [--dry-run] [--skip-invalid] [--json] [--url URL] [--token btp_…]';

function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

const VALUED = new Set(['--from', '--url', '--token', '--project']);

export async function importCommand(args: readonly string[], io: ImportIo): Promise<number> {
  const file = args.find((arg, i) => !arg.startsWith('-') && !VALUED.has(args[i - 1] ?? ''));
  const from = option(args, '--from');
  const fail = (message: string) => {
    io.err(`bugtrail import: ${message}\n`);
    return 1;
  };
  if (!file) return fail(`no file named\n${importUsage}`);
  if (!from || !(importSources as readonly string[]).includes(from)) {
    return fail(`--from must be one of ${importSources.join(', ')}\n${importUsage}`);
  }
  const system = from as ImportSource;
  const token = option(args, '--token') ?? io.env.BUGTRAIL_TOKEN;
  if (!token) {
    return fail(
      "an admin's API token is needed (write scope): --token btp_… or BUGTRAIL_TOKEN; Profile → Tokens makes one",
    );
  }
  const base = (option(args, '--url') ?? io.env.BUGTRAIL_URL ?? `http://localhost:${io.env.PORT || 8000}`).replace(
    /\/+$/,
    '',
  );
  const dryRun = args.includes('--dry-run');
  const skipInvalid = args.includes('--skip-invalid');
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return fail(`cannot read ${file}: not a file`);
    size = info.size;
  } catch {
    return fail(`cannot read ${file}`);
  }

  const progress = progressPrinter(io);
  let sent = 0;
  // pipeline, not pipe: a file that fails while it is read ends the upload with its reason
  // instead of an 'error' event nobody listens to.
  let readError: Error | null = null;
  const counted = pipeline(
    createReadStream(file),
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.byteLength;
        progress(`uploading ${percent(sent, size)} (${megabytes(sent)} of ${megabytes(size)})`);
        done(null, chunk);
      },
      flush(done) {
        progress(`checking every row of ${megabytes(size)}…`);
        done();
      },
    }),
    (error) => {
      if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') readError = error;
    },
  );
  const query = new URLSearchParams({ from: system, dryRun: String(dryRun), skipInvalid: String(skipInvalid) });
  // Into a chosen project (issue 35): its key or id; the default project without it.
  const project = option(args, '--project');
  if (project) query.set('project', project);
  let response: Response;
  try {
    response = await fetch(`${base}/api/import?${query}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': system === 'github' ? 'application/json' : 'text/csv',
        'content-length': String(size),
        accept: `${IMPORT_STREAM_TYPE}, application/json`,
      },
      body: Readable.toWeb(counted) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    progress.done();
    if (readError) return fail(`cannot read ${file}: ${(readError as Error).message}`);
    return fail(`cannot reach ${base}: ${(error as Error).message}`);
  }

  let answer: ImportAnswer | null = null;
  if ((response.headers.get('content-type') ?? '').includes(IMPORT_STREAM_TYPE) && response.body) {
    for await (const line of jsonLines(response.body)) {
      if ('progress' in line) {
        progress(
          `importing ${line.progress.done.toLocaleString('en-US')} of ${line.progress.total.toLocaleString('en-US')} bugs (${percent(line.progress.done, line.progress.total)})`,
        );
      } else if ('result' in line) {
        answer = line.result;
      } else {
        progress.done();
        return fail(`the import stopped (${line.error.status}): ${line.error.message}`);
      }
    }
  } else {
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: said below
    }
    if (!response.ok) {
      progress.done();
      const message = (body as { message?: string } | null)?.message ?? text.slice(0, 200);
      return fail(`${response.status} ${message}`);
    }
    answer = body as ImportAnswer;
  }
  progress.done();
  if (!answer) return fail('the server ended the answer early');

  if (args.includes('--json')) io.out(JSON.stringify(answer, null, 2));
  else report(answer, { dryRun, skipInvalid, label: importSourceLabels[system] }, io.out);
  return answer.errors.length > 0 && !skipInvalid ? 1 : 0;
}

function report(
  answer: ImportAnswer,
  options: { dryRun: boolean; skipInvalid: boolean; label: string },
  out: (line: string) => void,
): void {
  const bugs = (n: number) => `${n.toLocaleString('en-US')} bug${n === 1 ? '' : 's'}`;
  const blocked = answer.errors.length > 0 && !options.skipInvalid;
  if (options.dryRun) {
    out(
      `Dry run (nothing changed): ${bugs(answer.imported)} to import from ${options.label}, ${answer.skipped.toLocaleString('en-US')} already here.`,
    );
  } else if (blocked) {
    out('Nothing imported: the file has invalid rows. Fix them, or import the others with --skip-invalid.');
  } else {
    out(
      `Imported ${bugs(answer.imported)} from ${options.label}; ${answer.skipped.toLocaleString('en-US')} already here.`,
    );
  }
  if (answer.errors.length > 0) {
    out(
      `${answer.errors.length.toLocaleString('en-US')} invalid row${answer.errors.length === 1 ? '' : 's'}${options.skipInvalid ? ' (skipped)' : ''}:`,
    );
    for (const error of answer.errors.slice(0, 50)) out(`  row ${error.row}: ${error.message}`);
    if (answer.errors.length > 50)
      out(`  … and ${(answer.errors.length - 50).toLocaleString('en-US')} more (--json lists them all)`);
  }
  for (const item of answer.preview ?? []) {
    out(
      `  would create: ${item.sourceId} "${item.title}" (${item.status}, ${item.priority}, ${item.severity}; reported by ${item.reporter})`,
    );
  }
}

/** One progress line: rewritten in place on a terminal, else printed at most every 2 s. */
function progressPrinter(io: ImportIo) {
  let last = 0;
  let shown = false;
  const print = (text: string) => {
    const now = Date.now();
    if (io.isTTY) {
      io.err(`\r\u001b[2K${text}`);
      shown = true;
    } else if (now - last >= 2000) {
      io.err(`${text}\n`);
      last = now;
    }
  };
  print.done = () => {
    if (shown) io.err('\n');
    shown = false;
  };
  return print;
}

async function* jsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<ImportStreamLine> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield JSON.parse(line) as ImportStreamLine;
      newline = buffered.indexOf('\n');
    }
  }
  if (buffered.trim()) yield JSON.parse(buffered) as ImportStreamLine;
}

const percent = (part: number, whole: number) => `${whole > 0 ? Math.floor((part / whole) * 100) : 100}%`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
