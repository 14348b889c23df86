import {
  type Actor,
  ConflictError,
  compareImportOrder,
  DomainError,
  type ImportAnswer,
  type ImportBug,
  type ImportedIssue,
  type ImportPreviewItem,
  type ImportRowError,
  type ImportSource,
  importBugDecider,
  importedEventMetadata,
  importedPersonId,
  importedPersonName,
  importLimits,
  importMessages,
  type SourcePerson,
  streams,
} from '@bugtrail/domain';
import { type CommandHandler, deriveEventId, maxPosition, type Position } from '@bugtrail/eventstore';
import type pg from 'pg';
import type { BugNumbers } from '../bugs/bug-numbers.js';
import { ProjectBugNumbers } from '../projects/project-bug-numbers.js';
import { defaultProjectId } from '../projects/project-facts.js';
import { readRows, type SpooledFile } from './import-files.js';

/**
 * An import (api.md "Integrations", docs/import.md) in two passes over the spooled file.
 * The first checks every row, finds the bugs already imported (their ids derive from the
 * source's), and orders the new ones by source id; a dry run, or a file with errors and no
 * `skipInvalid`, ends there having changed nothing. The second numbers the new bugs in that
 * order and appends each through the one write path, a few at a time, with its source's
 * times and `importedFrom` in the events' metadata.
 */

export type ImportDeps = Readonly<{
  commands: CommandHandler;
  pool: pg.Pool;
  numbers: BugNumbers;
  timeZone: string;
  now?: () => Date;
}>;

export type ImportRun = Readonly<{
  system: ImportSource;
  actor: Actor;
  correlationId: string;
  /** The project the bugs go into (`project=KEY`, issue 35); the default project when absent. */
  projectId?: string;
}>;

/** What the first pass found: enough to answer a dry run and to drive the second. */
export type CheckedImport = Readonly<{
  /** The rows to create, by source id in the source's order: the row each is on, and its bug id. */
  creating: readonly { sourceId: string; row: number; bugId: string }[];
  skipped: number;
  errors: readonly ImportRowError[];
  preview: readonly ImportPreviewItem[];
}>;

export type AppendedImport = Readonly<{ answer: ImportAnswer; position: Position | null }>;

/** Bugs appended at once: the store takes a few appends in parallel well; more only queue. */
const CONCURRENCY = 8;
/** Existence is looked up this many ids at a time. */
const LOOKUP_BATCH = 2000;
/** How often (rows) the second pass reports progress. */
const PROGRESS_EVERY = 500;

/** The bug an issue becomes: the same id whenever it is imported, so a second import meets it. */
export const importedBugId = (system: ImportSource, sourceId: string) =>
  deriveEventId(`${system}:${sourceId}`, 'import', 0);

export class BugImport {
  constructor(private readonly deps: ImportDeps) {}

  /** Pass one: every row checked, nothing changed. */
  async check(file: SpooledFile, run: ImportRun): Promise<CheckedImport> {
    const people = await PeopleDirectory.load(this.deps.pool);
    const errors: ImportRowError[] = [];
    const firstRow = new Map<string, number>();
    type Candidate = { sourceId: string; order: string; row: number; bugId: string; issue?: ImportedIssue };
    const creating: Candidate[] = [];
    let candidates = 0;
    let skipped = 0;
    let batch: Candidate[] = [];
    const flush = async () => {
      const existing = await this.existing(batch.map((c) => c.bugId));
      for (const candidate of batch) {
        if (existing.has(candidate.bugId)) skipped++;
        else creating.push(candidate);
      }
      batch = [];
    };
    for await (const { row, mapped } of readRows(file, run.system, this.deps.timeZone)) {
      if ('error' in mapped) {
        errors.push({ row, message: mapped.error });
        continue;
      }
      const { sourceId, order } = mapped.issue;
      const first = firstRow.get(sourceId);
      if (first !== undefined) {
        errors.push({ row, message: importMessages.duplicate(sourceId, first) });
        continue;
      }
      firstRow.set(sourceId, row);
      const candidate = { sourceId, order, row, bugId: importedBugId(run.system, sourceId) };
      // The first rows keep their issue for the preview; the rest only what pass two needs.
      batch.push(candidates++ < importLimits.previewItems * 4 ? { ...candidate, issue: mapped.issue } : candidate);
      if (batch.length >= LOOKUP_BATCH) await flush();
    }
    await flush();
    creating.sort((a, b) => compareImportOrder(a.order, b.order) || compareImportOrder(a.sourceId, b.sourceId));
    errors.sort((a, b) => a.row - b.row);
    const preview = creating
      .filter((c) => c.issue)
      .sort((a, b) => a.row - b.row)
      .slice(0, importLimits.previewItems)
      .map((c) => previewOf(c.row, c.issue!, people, run.actor));
    return {
      creating: creating.map(({ sourceId, row, bugId }) => ({ sourceId, row, bugId })),
      skipped,
      errors,
      preview,
    };
  }

  /** Pass two: number the new bugs in source order, then append each (`onProgress` as they go). */
  async append(
    file: SpooledFile,
    run: ImportRun,
    checked: CheckedImport,
    onProgress?: (done: number, total: number) => void,
  ): Promise<AppendedImport> {
    const people = await PeopleDirectory.load(this.deps.pool);
    const total = checked.creating.length;
    const wanted = new Map<number, { bugId: string; number: number; projectNumber: number }>();
    // Into the chosen project, else the default one, numbered there in the same order.
    const projectId = run.projectId ?? (await defaultProjectId(this.deps));
    const projectNumbers = new ProjectBugNumbers(this.deps.pool);
    for (let from = 0; from < total; from += 10_000) {
      const slice = checked.creating.slice(from, from + 10_000);
      const ids = slice.map((c) => c.bugId);
      const numbers = await this.deps.numbers.assignMany(ids);
      const inProject = await projectNumbers.assignMany(projectId, ids);
      for (const [i, c] of slice.entries()) {
        wanted.set(c.row, { bugId: c.bugId, number: numbers[i]!, projectNumber: inProject[i]! });
      }
    }
    let imported = 0;
    let skipped = checked.skipped;
    let done = 0;
    let position: Position | null = null;
    const errors = [...checked.errors];
    const running = new Set<Promise<void>>();
    let failure: unknown = null;
    const now = () => (this.deps.now?.() ?? new Date()).toISOString();

    const importOne = async (
      row: number,
      issue: ImportedIssue,
      { bugId, number, projectNumber }: { bugId: string; number: number; projectNumber: number },
    ) => {
      const command: ImportBug = {
        type: 'ImportBug',
        data: {
          bugId,
          number,
          projectId,
          projectNumber,
          importedFrom: { system: run.system, id: issue.sourceId },
          title: issue.title,
          description: issue.description,
          status: issue.status,
          priority: issue.priority,
          severity: issue.severity,
          module: issue.module,
          dueDate: issue.dueDate,
          reporterId: issue.reporter ? people.idOf(issue.reporter) : run.actor.id,
          assigneeIds: issue.assignees.map((p) => people.idOf(p)),
          createdAt: issue.createdAt ?? now(),
          statusChangedAt: issue.statusChangedAt,
        },
        metadata: { actor: run.actor, now: now() },
      };
      try {
        const handled = await this.deps.commands.handle(
          streams.bug(bugId),
          importBugDecider,
          command,
          { actor: run.actor, correlationId: run.correlationId, idempotencyKey: null },
          { mustBeNew: true, extraMetadata: importedEventMetadata(command) },
        );
        imported++;
        if (handled.position) position = position ? maxPosition(position, handled.position) : handled.position;
      } catch (error) {
        // Imported meanwhile (another import of the same file): there already, as a re-import finds it.
        if (error instanceof ConflictError) skipped++;
        else if (error instanceof DomainError) errors.push({ row, message: error.message });
        else throw error;
      }
      done++;
      if (done % PROGRESS_EVERY === 0) onProgress?.(done, total);
    };

    onProgress?.(0, total);
    for await (const { row, mapped } of readRows(file, run.system, this.deps.timeZone)) {
      if (failure) break;
      const target = wanted.get(row);
      if (!target || 'error' in mapped) continue;
      const task = importOne(row, mapped.issue, target)
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => running.delete(task));
      running.add(task);
      if (running.size >= CONCURRENCY) await Promise.race(running);
    }
    await Promise.all(running);
    if (failure) throw failure;
    onProgress?.(done, total);
    errors.sort((a, b) => a.row - b.row);
    return { answer: { imported, skipped, errors }, position };
  }

  /**
   * Which of these bugs are there already. Every imported bug got its number before its
   * append, so an id without a number was never imported; one with a number is looked up in
   * its stream (an import that died between the two left a number and no bug).
   */
  private async existing(bugIds: readonly string[]): Promise<Set<string>> {
    if (bugIds.length === 0) return new Set();
    const { rows } = await this.deps.pool.query<{ bug_id: string }>(
      'select bug_id from write_api.bug_numbers where bug_id = any($1::text[])',
      [bugIds],
    );
    const found = new Set<string>();
    const numbered = rows.map((r) => r.bug_id);
    for (let i = 0; i < numbered.length; i += CONCURRENCY) {
      await Promise.all(
        numbered.slice(i, i + CONCURRENCY).map(async (bugId) => {
          const events = await this.deps.commands.store.readStream(streams.bug(bugId), { limit: 1 });
          if (events.length > 0) found.add(bugId);
        }),
      );
    }
    return found;
  }
}

/**
 * The people an import may name: users here, matched by email, then by name (when only one
 * user has it); anyone else is kept by name (imported-people.ts).
 */
export class PeopleDirectory {
  private constructor(
    private readonly byEmail: ReadonlyMap<string, string>,
    private readonly byName: ReadonlyMap<string, string | null>,
    private readonly names: ReadonlyMap<string, string>,
  ) {}

  static async load(pool: pg.Pool): Promise<PeopleDirectory> {
    const { rows } = await pool.query<{ user_id: string; email: string; name: string | null }>(
      'select user_id, email, name from auth.credentials order by created_at',
    );
    const byEmail = new Map<string, string>();
    const byName = new Map<string, string | null>();
    const names = new Map<string, string>();
    for (const row of rows) {
      byEmail.set(row.email.trim().toLowerCase(), row.user_id);
      if (!row.name) continue;
      names.set(row.user_id, row.name);
      const key = nameKey(row.name);
      // Two users of one name: neither is taken for it.
      byName.set(key, byName.has(key) ? null : row.user_id);
    }
    return new PeopleDirectory(byEmail, byName, names);
  }

  idOf(person: SourcePerson): string {
    const byEmail = person.email ? this.byEmail.get(person.email.toLowerCase()) : undefined;
    if (byEmail) return byEmail;
    for (const name of [person.name, ...(person.aliases ?? [])]) {
      const id = this.byName.get(nameKey(name));
      if (id) return id;
    }
    return importedPersonId(person.name);
  }

  nameOf(id: string): string {
    return this.names.get(id) ?? importedPersonName(id) ?? id;
  }
}

const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

function previewOf(row: number, issue: ImportedIssue, people: PeopleDirectory, actor: Actor): ImportPreviewItem {
  const nameOf = (person: SourcePerson) => people.nameOf(people.idOf(person));
  return {
    row,
    sourceId: issue.sourceId,
    title: issue.title,
    status: issue.status,
    priority: issue.priority,
    severity: issue.severity,
    module: issue.module,
    reporter: issue.reporter ? nameOf(issue.reporter) : (actor.name ?? people.nameOf(actor.id)),
    assignees: issue.assignees.map(nameOf),
    createdAt: issue.createdAt ?? new Date().toISOString(),
    statusChangedAt: issue.statusChangedAt,
  };
}
