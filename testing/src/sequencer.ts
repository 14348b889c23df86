import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest test files, measured (seconds, one run of the PostgreSQL 15 pass on this 2-core
 * machine, 2026-11-29): started first, so that the two workers finish together.
 *
 * Vitest starts the files it has timings for longest first, but a clean checkout (every CI run)
 * has none, and then the order is the glob's: the fuzz suite (about two and a half minutes)
 * started last and ran alone for its whole length, a minute of the pass's wall time. Files not
 * listed keep vitest's order after these; once vitest has its own timings it orders by them.
 */
const LONGEST: Readonly<Record<string, number>> = {
  'testing/src/fuzz/fuzz.int.spec.ts': 144,
  'cli/src/embedded-db.int.spec.ts': 104,
  'eventstore/src/esdb/esdb-event-store.int.spec.ts': 61,
  'cli/src/read-replica.int.spec.ts': 58,
  'cli/src/operations.int.spec.ts': 28,
  'write-api/src/auth/rate-limits.int.spec.ts': 24,
  'projector/src/notifications/mail.int.spec.ts': 22,
  'write-api/src/uploads/upload-failures.int.spec.ts': 17,
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification) => LONGEST[path.relative(root, file.moduleId)] ?? 0;
    // Stable: within a project, listed files first (longest first), the rest as vitest had them.
    const rank = new Map(sorted.map((file, i) => [file, i]));
    const projectOrder = new Map<string, number>();
    for (const [i, file] of sorted.entries()) {
      if (!projectOrder.has(file.project.name)) projectOrder.set(file.project.name, i);
    }
    return [...sorted].sort(
      (a, b) =>
        projectOrder.get(a.project.name)! - projectOrder.get(b.project.name)! ||
        seconds(b) - seconds(a) ||
        rank.get(a)! - rank.get(b)!,
    );
  }
}
