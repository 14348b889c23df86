import {
  assertOpenTo,
  ForbiddenError,
  IMPORT_STREAM_TYPE,
  type ImportAnswer,
  type ImportStreamLine,
  importLimits,
  importMessages,
  importPermissions,
  importSources,
} from '@bugtrail/domain';
import { type AuthEnv, errorBody, HttpError, readQuery, requireAuth } from '@bugtrail/platform';
import { Hono } from 'hono';
import { z } from 'zod';
import { BugNumbers } from '../bugs/bug-numbers.js';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { factsOf, projectNamed } from '../projects/project-facts.js';
import { BugImport, type ImportRun } from './bug-import.js';
import { type SpooledFile, spoolBody } from './import-files.js';

const flag = (name: string) =>
  z
    .enum(['true', 'false'], { message: importMessages.badFlag(name) })
    .optional()
    .transform((value) => value === 'true');

export const importQuery = z.object({
  from: z.enum(importSources, { message: importMessages.unknownSource }),
  dryRun: flag('dryRun'),
  skipInvalid: flag('skipInvalid'),
  project: z
    .string()
    .max(100)
    .optional()
    .describe('The project the bugs go into: its key (any it has had) or `_id`; the default project when absent'),
});

/**
 * `POST /api/import?from=redmine|jira|github&dryRun=&skipInvalid=` (api.md "Integrations"):
 * the file is the body, up to 200 MB, spooled to disk as it arrives (bug-import.ts reads
 * it twice). Admins only, refused before a byte of the body is read. With `Accept:
 * application/x-ndjson` the appends report their progress as JSON lines before the answer.
 */
export function createImportRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const importer = new BugImport({
    commands: deps.commands,
    pool: deps.pool,
    numbers: new BugNumbers(deps.pool),
    timeZone: deps.config.importTimeZone,
    ...(deps.now ? { now: deps.now } : {}),
  });
  app.use('*', requireAuth(deps.tokens));

  app.post('/', async (c) => {
    const actor = c.var.actor;
    if (!importPermissions.canImport(actor)) throw new ForbiddenError(importMessages.adminsOnly);
    const query = readQuery(c, importQuery);
    // The project is checked before a byte of the body is read: 404 unknown, 409 archived.
    let projectId: string | undefined;
    if (query.project !== undefined) {
      const project = await projectNamed(deps, query.project);
      assertOpenTo(actor, factsOf(project));
      projectId = project.id;
    }
    const file = await spoolBody(c, deps.spool, importLimits.fileBytes, importMessages.tooLarge);
    let handedOver = false;
    try {
      if (file.bytes === 0) throw new HttpError(400, importMessages.empty);
      const run: ImportRun = {
        system: query.from,
        actor,
        correlationId: commandContext(c, actor).correlationId,
        ...(projectId ? { projectId } : {}),
      };
      const checked = await importer.check(file, run);
      const blocked = checked.errors.length > 0 && !query.skipInvalid;
      if (query.dryRun || blocked || checked.creating.length === 0) {
        const answer: ImportAnswer = {
          imported: query.dryRun ? checked.creating.length : 0,
          skipped: checked.skipped,
          errors: checked.errors,
          ...(query.dryRun ? { preview: checked.preview } : {}),
        };
        return c.json(answer);
      }
      if ((c.req.header('accept') ?? '').includes(IMPORT_STREAM_TYPE)) {
        handedOver = true;
        return c.body(progressStream(file, run, checked), 200, {
          'Content-Type': `${IMPORT_STREAM_TYPE}; charset=utf-8`,
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
      }
      const { answer, position } = await importer.append(file, run, checked);
      await settle(c, deps, position);
      return c.json(answer);
    } finally {
      if (!handedOver) await file.remove();
    }
  });

  /** The second pass as JSON lines: progress, then the answer (or the error that stopped it). */
  function progressStream(
    file: SpooledFile,
    run: ImportRun,
    checked: Awaited<ReturnType<BugImport['check']>>,
  ): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let open = true;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (line: ImportStreamLine) => {
          if (!open) return;
          try {
            controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
          } catch {
            open = false; // the client left; the import goes on to its end
          }
        };
        void (async () => {
          try {
            const { answer, position } = await importer.append(file, run, checked, (done, total) =>
              send({ progress: { done, total } }),
            );
            if (position) await deps.changeFeed.waitFor(position, deps.config.readYourWritesTimeoutMs);
            send({ result: answer });
          } catch (error) {
            const known = errorBody(error);
            if (!known) deps.logger.error('import failed', { error, correlationId: run.correlationId });
            send({
              error: {
                status: known?.status ?? 500,
                message: known ? String(known.body.message) : 'The import stopped: server error',
              },
            });
          } finally {
            await file.remove();
            if (open) {
              open = false;
              controller.close();
            }
          }
        })();
      },
      cancel() {
        open = false;
      },
    });
  }

  return app;
}
