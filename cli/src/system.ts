import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  CommandHandler,
  EsdbEventStore,
  type EventStore,
  migrateEventStore,
  PostgresEventStore,
  timeAppends,
} from '@bugtrail/eventstore';
import {
  ChangeFeed,
  type Config,
  createDb,
  createOpsRoutes,
  createPool,
  type DnsLookup,
  FolderBlobStore,
  type Logger,
  listen,
  Mailer,
  Metrics,
  migrate,
  platformMigrations,
  type Readiness,
  ReplicaFeed,
  ReplicaPool,
  type RunningServer,
  TokenService,
  UploadSpool,
} from '@bugtrail/platform';
import {
  AutomationReactor,
  allProjections,
  ChatAiReactor,
  chatAiReactorMigrations,
  DueReminders,
  installAnalyticsViews,
  MailReactor,
  mailReactorMigrations,
  type Projection,
  Projector,
  type ProjectorStatus,
  projectorMigrations,
  type ReadModelDb,
  SlaBreaches,
  WebhookReactor,
} from '@bugtrail/projector';
import { createReadApi, isReadApiPost, type ReadApi } from '@bugtrail/read-api';
import {
  Accounts,
  BugNumbers,
  ClaimOwner,
  createWriteApi,
  ensureGeneralProject,
  finishLabelCleanup,
  finishMilestoneCleanup,
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
  /** This process's Prometheus metrics, served at /metrics by whichever parts run here. */
  metrics: Metrics;
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
  /** The webhook reactor's DNS lookup (tests stub it; the system's resolver otherwise). */
  webhookLookup?: DnsLookup;
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
  const metrics = new Metrics();
  const store: EventStore = timeAppends(
    config.eventstoreConnectionString
      ? new EsdbEventStore(config.eventstoreConnectionString, { rows: pool })
      : new PostgresEventStore(pool),
    (seconds) => metrics.appendSeconds.observe(seconds),
  );
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
  await ensureGeneralProject(pool, commands);
  // A label deleted while a process stopped mid-way: its last bugs lose it now.
  await finishLabelCleanup(pool, commands);
  await finishMilestoneCleanup(pool, commands);
  // The analytics views read every projection's tables: only a projector that runs them all installs them.
  const projections = options.projections ?? allProjections;
  const projector = new Projector(store, pool, db, projections, {
    logger,
    changeFeed,
    ...(projections === allProjections ? { views: installAnalyticsViews } : {}),
  });
  await projector.prepare();
  const status = memoized(() => projector.status(), 1000);
  metrics.gauge(
    'bugtrail_projector_lag_events',
    'Events recorded but not yet in every read model (capped at 10,000)',
    async () => (await status()).eventsBehind,
  );
  metrics.gauge(
    'bugtrail_projector_lag_seconds',
    'Age of the oldest event not yet in every read model',
    async () => (await status()).secondsBehind,
  );
  metrics.gauge('bugtrail_projector_leader', '1 while this process leads the projector, else 0', () =>
    projector.role === 'leader' ? 1 : 0,
  );
  if (parts.has('projector')) projector.start();
  // The chat assistant answers beside the projector (it appends, so it runs where the projector does).
  const aiReactor = new ChatAiReactor(commands, pool, { logger, ai: config.ai, changeFeed });
  await aiReactor.prepare();
  if (parts.has('projector')) {
    await aiReactor.loadModels();
    aiReactor.start();
  }
  // Outgoing webhooks: one leader, beside the projector, on its own checkpoint.
  const webhookReactor = new WebhookReactor(commands, pool, {
    logger,
    config: config.webhooks,
    // Only where it sends does it need waking.
    ...(parts.has('projector') ? { changeFeed } : {}),
    ...(options.webhookLookup ? { lookup: options.webhookLookup } : {}),
  });
  await webhookReactor.prepare();
  if (parts.has('projector')) webhookReactor.start();
  // Automation rules (ADR 029): one leader, beside the projector, on its own checkpoint.
  const automationReactor = new AutomationReactor(commands, pool, { logger });
  await automationReactor.prepare();
  if (parts.has('projector')) automationReactor.start();
  // The clock's notifications (due soon, overdue): one leader, beside the projector.
  const dueReminders = new DueReminders(commands, pool, { logger });
  if (parts.has('projector')) dueReminders.start();
  const slaBreaches = new SlaBreaches(commands, pool, { logger });
  if (parts.has('projector')) slaBreaches.start();
  // Notification mail, when SMTP_URL is set: one leader, beside the projector.
  const mailer = Mailer.fromConfig(config);
  const mailReactor = mailer
    ? new MailReactor(mailer, pool, { logger, baseUrl: config.publicUrl ?? `http://localhost:${config.port}` })
    : null;
  if (parts.has('projector')) mailReactor?.start();

  const uploadsDir = path.join(config.dataDir, 'uploads');
  await mkdir(uploadsDir, { recursive: true });
  const claimOwner = parts.has('write-api') ? new ClaimOwner(pool, logger) : null;
  await claimOwner?.start();
  const writeApi = claimOwner
    ? createWriteApi({
        claimOwner,
        commands,
        pool,
        tokens,
        changeFeed,
        inviteCodes,
        accounts,
        config,
        logger,
        metrics,
        blobs: new FolderBlobStore(uploadsDir),
        spool: new UploadSpool(config.spool, config),
      })
    : null;
  // read-api reads from a hot standby when there is one (ADR 022), the primary otherwise.
  const replica =
    parts.has('read-api') && config.readDatabaseUrl
      ? await startReplica(config.readDatabaseUrl, pool, changeFeed, logger, options.poolSize ?? 40)
      : null;
  const readApi = parts.has('read-api')
    ? createReadApi({
        db: replica?.db ?? db,
        pool: replica?.pool ?? pool,
        store,
        tokens,
        changeFeed: replica?.feed ?? changeFeed,
        config,
        logger,
        metrics,
        uploadsDir,
        // Documented beside read-api's own even when write-api runs elsewhere (same origin behind the proxy).
        operations: writeApiOperations,
        ...(options.webDir ? { webDir: options.webDir } : {}),
      })
    : null;
  if (readApi) metrics.gauge('bugtrail_sse_clients', 'Open live (SSE) streams', () => readApi.liveClients());
  // A process without either API (--only projector) still answers the operator's routes.
  const ops = createOpsRoutes({
    metrics,
    readiness: () => projectorReadiness(pool, store, status),
    metricsAllow: config.metricsAllow,
  });
  const notServed = () => Response.json({ message: 'Not found' }, { status: 404 });
  const fetch = (request: Request, env?: unknown) => {
    const { pathname } = new URL(request.url);
    const isRead =
      ((request.method === 'GET' || request.method === 'HEAD') && !isWriteApiRead(pathname)) ||
      isReadApiPost(request.method, pathname);
    const app = isRead ? (readApi ?? writeApi) : (writeApi ?? readApi);
    return app ? app.fetch(request, env) : isRead ? ops.fetch(request, env) : notServed();
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
    metrics,
    fetch,
    writeApi,
    readApi,
    async close() {
      if (closed) return;
      closed = true;
      await aiReactor.stop();
      await webhookReactor.stop();
      await automationReactor.stop();
      await dueReminders.stop();
      await slaBreaches.stop();
      await mailReactor?.stop();
      mailer?.close();
      await projector.stop();
      replica?.feed.close();
      await replica?.db.destroy().catch(() => {});
      await changeFeed.close();
      await claimOwner?.close();
      await tokens.close();
      await store.close();
      // pool.end() waits for every client to come back; never let one stuck client hang a shutdown.
      await Promise.race([db.destroy().catch(() => {}), new Promise((r) => setTimeout(r, 5000).unref())]);
    },
  };
}

/** The standby's pool (falling back to the primary), read models and view of the change feed. */
async function startReplica(url: string, primary: pg.Pool, changeFeed: ChangeFeed, logger: Logger, max: number) {
  const pool = new ReplicaPool(url, primary, logger, max);
  const feed = new ReplicaFeed(changeFeed, primary, pool);
  await feed.start();
  return { pool, db: createDb<ReadModelDb>(pool), feed };
}

/** A standby is ready to take over; a leader must also be within the lag bound read-api uses. */
async function projectorReadiness(
  pool: pg.Pool,
  store: EventStore,
  status: () => Promise<ProjectorStatus>,
): Promise<Readiness> {
  const [database, eventStore] = (await Promise.allSettled([pool.query('select 1'), store.headPosition()])).map(
    (check) => (check.status === 'fulfilled' ? 'ok' : 'unreachable'),
  );
  if (database !== 'ok' || eventStore !== 'ok')
    return { ready: false, body: { status: 'unavailable', database, eventStore } };
  const { role, position, eventsBehind, eventsBehindCapped, secondsBehind } = await status();
  const ready = role !== 'stopped' && (role === 'standby' || (eventsBehind <= 1000 && secondsBehind <= 30));
  return {
    ready,
    body: {
      status: ready ? 'ready' : role === 'stopped' ? 'unavailable' : 'lagging',
      database,
      eventStore,
      projector: {
        role,
        position,
        eventsBehind: eventsBehindCapped ? `${eventsBehind}+` : eventsBehind,
        secondsBehind: Math.round(secondsBehind * 10) / 10,
      },
    },
  };
}

/** The same answer for `ms` after it came (a scrape reads several gauges from one status). */
function memoized<T>(read: () => Promise<T>, ms: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || performance.now() - last.at > ms) {
      const value = read();
      last = { at: performance.now(), value };
      value.catch(() => {
        last = null;
      });
    }
    return last.value;
  };
}

export type Served = { system: System; server: RunningServer };

export async function serveSystem(system: System, port: number, host: string): Promise<RunningServer> {
  return listen({ fetch: system.fetch }, port, host);
}
