import { createReadStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { IMPORT_STREAM_TYPE, type ImportAnswer, type ImportStreamLine } from '@bugtrail/domain';
import { benchCall, registerBenchUser, startServerProcess } from './server-process.js';
import { round, runConcurrent } from './stats.js';
import type { BenchContext, BenchSuite } from './types.js';

const STATUSES = ['New', 'In Progress', 'Feedback', 'Resolved', 'Closed', 'Rejected'];
const PRIORITIES = ['Low', 'Normal', 'High', 'Urgent', 'Immediate'];

/**
 * Import (issue 20): a Redmine CSV of 100,000 rows (10,000 with --quick) streamed to `POST
 * /api/import` of the launcher in its own process, as `bugtrail import` sends it: rows/s from
 * the first byte sent to the answer (upload, both passes, every append), and the server's
 * resident memory sampled all along. Baselines from the same run: plain `POST /api/bugs`
 * reports (16 workers) on the same server, and its memory just before the import.
 */
export function importSuite(root: string): BenchSuite {
  return {
    name: 'import',
    async run(ctx) {
      const rows = ctx.quick ? 10_000 : 100_000;
      const dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-bench-import-'));
      const file = path.join(dir, 'redmine.csv');
      const database = await ctx.createDatabase();
      const server = await startServerProcess(root, database.url);
      try {
        const base = server.url;
        const admin = await registerBenchUser(base, 'admin', 1);
        const tester = await registerBenchUser(base, 'tester', 1);
        const developer = await registerBenchUser(base, 'developer', 1);

        const reports = ctx.quick ? 500 : 2000;
        const plain = await runConcurrent(reports, 16, async (i) => {
          await benchCall(`${base}/api/bugs`, {
            body: {
              title: `Baseline bug ${i}`,
              description: 'Steps: open the page, click the button, see the error.',
              priority: 'Medium',
              severity: 'Minor',
              assignedTo: [developer.id],
            },
            token: tester.token,
          });
        });
        const reportsPerSecond = (reports / plain.wallMs) * 1000;
        ctx.log(`baseline: ${round(reportsPerSecond, 0)} reports/s`);

        await writeRedmineCsv(file, rows);
        const bytes = (await stat(file)).size;
        const pid = server.child.pid!;
        const rssBefore = await residentMb(pid);
        let rssPeak = rssBefore;
        const sampler = setInterval(() => {
          residentMb(pid)
            .then((mb) => {
              rssPeak = Math.max(rssPeak, mb);
            })
            .catch(() => {});
        }, 100);
        const started = performance.now();
        let answer: ImportAnswer;
        try {
          answer = await streamImport(base, admin.token, file, bytes, ctx);
        } finally {
          clearInterval(sampler);
        }
        const seconds = (performance.now() - started) / 1000;
        if (answer.imported !== rows)
          throw new Error(`imported ${answer.imported} of ${rows}: ${JSON.stringify(answer.errors.slice(0, 3))}`);
        const rowsPerSecond = rows / seconds;
        ctx.log(`import: ${round(rowsPerSecond, 0)} rows/s, peak RSS ${round(rssPeak, 0)} MB`);
        // The read models follow behind: when the dashboard counts them all.
        const caughtUp = await waitForDashboard(base, admin.token, rows + reports, 600_000);
        const behind = (performance.now() - started) / 1000;
        return [
          {
            suite: 'import',
            name: `import of ${rows.toLocaleString('en-US')} Redmine rows (${round(bytes / 1024 / 1024, 1)} MB)`,
            value: round(rowsPerSecond, 0),
            unit: 'rows/s',
            baseline: { name: 'POST /api/bugs, 16 workers', value: round(reportsPerSecond, 0), unit: 'reports/s' },
            ratio: round(rowsPerSecond / reportsPerSecond, 2),
            note: `${round(seconds, 1)} s to the answer; ${caughtUp ? `read models had every bug after ${round(behind, 1)} s` : 'read models not caught up within 10 min'}`,
          },
          {
            suite: 'import',
            name: `server RSS while importing ${rows.toLocaleString('en-US')} rows`,
            value: round(rssPeak, 0),
            unit: 'MB peak',
            baseline: { name: 'the same server just before', value: round(rssBefore, 0), unit: 'MB' },
            ratio: round(rssPeak / rssBefore, 2),
            note: `the file is ${round(bytes / 1024 / 1024, 1)} MB: spooled to disk, read twice as a stream`,
          },
        ];
      } finally {
        await server.stop();
        await database.drop();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Redmine's English CSV export: a quoted multi-line description in every tenth row, times over two years. */
async function writeRedmineCsv(file: string, rows: number): Promise<void> {
  // A file handle, not a write stream: a failed write rejects here instead of emitting an
  // 'error' event nobody listens to. Lines are written a megabyte at a time.
  const out = await open(file, 'w');
  let pending = '';
  const flush = async () => {
    if (pending) await out.writeFile(pending);
    pending = '';
  };
  const write = async (line: string) => {
    pending += line;
    if (pending.length >= 1024 * 1024) await flush();
  };
  await write(
    '\uFEFF#,Project,Tracker,Status,Priority,Subject,Author,Assignee,Updated,Category,Created,Closed,Description\r\n',
  );
  const start = Date.UTC(2023, 0, 1);
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  for (let i = 1; i <= rows; i++) {
    const status = STATUSES[i % STATUSES.length]!;
    const created = start + i * 600_000;
    const closed =
      status === 'Closed' || status === 'Rejected' || status === 'Resolved'
        ? stamp(created + 86_400_000 * (1 + (i % 9)))
        : '';
    const description =
      i % 10 === 0
        ? `"Steps to reproduce ${i}:\r\n1. Open the ""export"" page\r\n2. Click Download, see the last row missing"`
        : `The export of report ${i} drops its last row when the list has more than one page of results`;
    await write(
      `${i},Web,Bug,${status},${PRIORITIES[i % PRIORITIES.length]},Imported issue number ${i},Reporter ${i % 50},${i % 3 === 0 ? 'Bench developer 1' : ''},${closed || stamp(created + 3_600_000)},Module ${i % 12},${stamp(created)},${closed},${description}\r\n`,
    );
  }
  try {
    await flush();
  } finally {
    await out.close();
  }
}

async function streamImport(
  base: string,
  token: string,
  file: string,
  bytes: number,
  ctx: BenchContext,
): Promise<ImportAnswer> {
  const response = await fetch(`${base}/api/import?from=redmine&skipInvalid=false`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'text/csv',
      'content-length': String(bytes),
      accept: IMPORT_STREAM_TYPE,
    },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  if (!response.ok || !response.body) throw new Error(`import: ${response.status} ${await response.text()}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes(IMPORT_STREAM_TYPE)) return (await response.json()) as ImportAnswer;
  const decoder = new TextDecoder();
  let buffered = '';
  let lastLogged = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = JSON.parse(buffered.slice(0, at)) as ImportStreamLine;
      buffered = buffered.slice(at + 1);
      if ('result' in line) return line.result;
      if ('error' in line) throw new Error(`import stopped: ${line.error.message}`);
      if (line.progress.done - lastLogged >= 20_000) {
        lastLogged = line.progress.done;
        ctx.log(`import: ${line.progress.done} of ${line.progress.total}`);
      }
    }
  }
  throw new Error('import: the answer ended without a result');
}

/** Resident memory of a process (Linux /proc), in MB. */
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function waitForDashboard(base: string, token: string, total: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const answer = await benchCall(`${base}/api/bugs/admin-dashboard`, { token });
    if (answer.statistics.totalBugs >= total) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
