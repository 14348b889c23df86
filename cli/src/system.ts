import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  CommandHandler,
  EsdbEventStore,
  type EventStore,
  migrateEventStore,
  PostgresEventStore,
} from '@bugtrail/eventstore';
import {
  ChangeFeed,
  type Config,
  createDb,
  createPool,
  FolderBlobStore,
  type Logger,
  listen,
  Mailer,
  migrate,
  platformMigrations,
  type RunningServer,
  TokenService,
} from '@bugtrail/platform';
import {
  allProjections,
  ChatAiReactor,
  chatAiReactorMigrations,
  DueReminders,
  installAnalyticsViews,
  MailReactor,
  mailReactorMigrations,
  type Projection,
  Projector,
  projectorMigrations,
  type ReadModelDb,
} from '@bugtrail/projector';
import { createReadApi, isReadApiPost, type ReadApi } from '@bugtrail/read-api';
import {
  Accounts,
  BugNumbers,
  createWriteApi,
  InviteCodes,
  isWriteApiRead,
  writeApiMigrations,
  writeApiOperations,
} from '@bugtrail/write-api';
import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type pg from 'pg';

export type Part = 'write-api' | 'read-api' | 'projector';
export const ALL_PARTS: readonly Part[] = ['write-api', 'read-api', 'projector'];

export type System = Readonly<{
  pool: pg.Pool;
  db: Kysely<ReadModelDb>;
  store: EventStore;
  /** The one write path (HTTP commands and reactors alike). */
  commands: CommandHandler;
  projector: Projector;
  changeFeed: ChangeFeed;
  tokens: TokenService;
  inviteCodes: InviteCodes;
  /**
   * GET/HEAD to read-api (but single sign-on's), everything else to write-api (but the
   * read-only POSTs of `readApiPostPaths`): what the reverse proxy does in compose.
   */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  writeApi: Hono | null;
  readApi: ReadApi | null;
  close(): Promise<void>;
}>;

export type SystemOptions = {
  config: Config;
  databaseUrl: string;
  logger: Logger;
  parts?: readonly Part[];
  webDir?: string;
  projections?: readonly Projection[];
  poolSize?: number;
};

export async function migrateAll(pool: pg.Pool): Promise<void> {
  await migrateEventStore(pool);
  await migrate(pool, {
    ...platformMigrations,
    ...projectorMigrations,
    ...chatAiReactorMigrations,
    ...mailReactorMigrations,
    ...writeApiMigrations,
  });
}

/** Wires the real parts together. The only place that does. */
export async function createSystem(options: SystemOptions): Promise<System> {
  const { config, logger } = options;
  const parts = new Set(options.parts ?? ALL_PARTS);
  const pool = createPool(options.databaseUrl, { max: options.poolSize ?? 40, logger });
  await migrateAll(pool);
  const store: EventStore = config.eventstoreConnectionString
    ? new EsdbEventStore(config.eventstoreConnectionString)
    : new PostgresEventStore(pool);
  const commands = new CommandHandler(store);
  const db = createDb<ReadModelDb>(pool);
  const changeFeed = new ChangeFeed(pool, logger);
  await changeFeed.start();
  const tokens = await TokenService.create(pool, config.jwtSecret, logger);
  const inviteCodes = await InviteCodes.create(pool, config.adminInviteCode);
  const accounts = new Accounts(pool);
  await accounts.backfill(commands);
  // Bugs reported before numbers get theirs first, so every new report numbers after them.
  await new BugNumbers(pool).backfill(store, commands, logger);
  // The analytics views read every projection's tables: only a projector that runs them all installs them.
  const projections = options.projections ?? allProjections;
  const projector = new Projector(store, pool, db, projections, {
    logger,
    changeFeed,
    ...(projections === allProjections ? { views: installAnalyticsViews } : {}),
  });
  await projector.prepare();
  if (parts.has('projector')) projector.start();
  // The chat assistant answers beside the projector (it appends, so it runs where the projector does).
  const aiReactor = new ChatAiReactor(commands, pool, { logger, ai: config.ai, changeFeed });
  await aiReactor.prepare();
  if (parts.has('projector')) {
    await aiReactor.loadModels();
    aiReactor.start();
  }
  // The clock's notifications (due soon, overdue): one leader, beside the projector.
  const dueReminders = new DueReminders(commands, pool, { logger });
  if (parts.has('projector')) dueReminders.start();
  // Notification mail, when SMTP_URL is set: one leader, beside the projector.
  const mailer = Mailer.fromConfig(config);
  const mailReactor = mailer
    ? new MailReactor(mailer, pool, { logger, baseUrl: config.publicUrl ?? `http://localhost:${config.port}` })
    : null;
  if (parts.has('projector')) mailReactor?.start();

  const uploadsDir = path.join(config.dataDir, 'uploads');
  await mkdir(uploadsDir, { recursive: true });
  const writeApi = parts.has('write-api')
    ? createWriteApi({
        commands,
        pool,
        tokens,
        changeFeed,
        inviteCodes,
        accounts,
        config,
        logger,
        blobs: new FolderBlobStore(uploadsDir),
      })
    : null;
  const readApi = parts.has('read-api')
    ? createReadApi({
        db,
        pool,
        store,
        tokens,
        changeFeed,
        config,
        logger,
        uploadsDir,
        // Documented beside read-api's own even when write-api runs elsewhere (same origin behind the proxy).
        operations: writeApiOperations,
        ...(options.webDir ? { webDir: options.webDir } : {}),
      })
    : null;
  const notServed = () => Response.json({ message: 'Not found' }, { status: 404 });
  const fetch = (request: Request, env?: unknown) => {
    const { pathname } = new URL(request.url);
    const isRead =
      ((request.method === 'GET' || request.method === 'HEAD') && !isWriteApiRead(pathname)) ||
      isReadApiPost(request.method, pathname);
    const app = isRead ? (readApi ?? writeApi) : (writeApi ?? readApi);
    return app ? app.fetch(request, env) : notServed();
  };

  let closed = false;
  return {
    pool,
    db,
    store,
    commands,
    projector,
    changeFeed,
    tokens,
    inviteCodes,
    fetch,
    writeApi,
    readApi,
    async close() {
      if (closed) return;
      closed = true;
      await aiReactor.stop();
      await dueReminders.stop();
      await mailReactor?.stop();
      mailer?.close();
      await projector.stop();
      await changeFeed.close();
      await tokens.close();
      await store.close();
      // pool.end() waits for every client to come back; never let one stuck client hang a shutdown.
      await Promise.race([db.destroy().catch(() => {}), new Promise((r) => setTimeout(r, 5000).unref())]);
    },
  };
}

export type Served = { system: System; server: RunningServer };

export async function serveSystem(system: System, port: number, host: string): Promise<RunningServer> {
  return listen({ fetch: system.fetch }, port, host);
}
