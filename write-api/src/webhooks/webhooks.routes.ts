import { randomBytes, randomUUID } from 'node:crypto';
import {
  ConflictError,
  createWebhookBody,
  ForbiddenError,
  NotFoundError,
  updateWebhookBody,
  ValidationError,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_WAKE_CHANNEL,
  type WebhookDeliveryDto,
  type WebhookDto,
  webhookLimits,
  webhookMessages,
} from '@bugtrail/domain';
import {
  AddressPolicy,
  type AuthEnv,
  inTransaction,
  NotPublicAddressError,
  readJson,
  requireAuth,
  systemLookup,
} from '@bugtrail/platform';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { WriteApiDeps } from '../deps.js';
import { projectOfKey } from '../projects/project-keys.js';

/** The project of this id, if there is one (every project has its rights row from its creation on). */
async function projectOfId(deps: Pick<WriteApiDeps, 'pool'>, id: string): Promise<string | null> {
  const { rows } = await deps.pool.query<{ project_id: string }>(
    'select project_id from write_api.project_rights where project_id = $1',
    [id],
  );
  return rows[0]?.project_id ?? null;
}

type SubscriptionRow = {
  id: string;
  url: string;
  events: string[];
  description: string;
  projects: string[] | null;
  active: boolean;
  created_at: Date;
};

const toDto = (row: SubscriptionRow): WebhookDto => ({
  _id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  projects: row.projects,
  active: row.active,
  createdAt: row.created_at.toISOString(),
});

const COLUMNS = 'id, url, events, description, projects, active, created_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Outgoing webhooks (api.md "Integrations"), admins' to manage: subscribe a URL to event
 * types (the signing secret is answered once), change or delete it, read its delivery log,
 * redeliver one message, ping it. Auditors read what admins read: the list and the logs.
 * The webhook reactor (projector/src/webhooks) does the sending. Subscriptions are settings
 * kept beside the credentials, not events; a webhook switched off for failing is an event.
 */
export function createWebhookRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const policy = new AddressPolicy(deps.config.webhooks.allowHosts);
  app.use('*', requireAuth(deps.tokens));
  app.use('*', async (c, next) => {
    const { role } = c.var.actor;
    const reads = c.req.method === 'GET' || c.req.method === 'HEAD';
    if (role !== 'admin' && !(reads && role === 'auditor')) throw new ForbiddenError(webhookMessages.adminsOnly);
    await next();
  });

  /** 400 "must be a public address" for a URL that is, or now resolves to, a non-public address. */
  const publicUrl = async (url: string) => {
    try {
      await policy.check(new URL(url), systemLookup, 'allow');
    } catch (error) {
      if (error instanceof NotPublicAddressError) throw ValidationError.field('url', webhookMessages.urlNotPublic);
      throw error;
    }
    return url;
  };

  const load = async (id: string): Promise<SubscriptionRow> => {
    if (!UUID.test(id)) throw new NotFoundError(webhookMessages.notFound);
    const { rows } = await deps.pool.query<SubscriptionRow>(
      `select ${COLUMNS} from webhooks.subscriptions where id = $1`,
      [id],
    );
    if (!rows[0]) throw new NotFoundError(webhookMessages.notFound);
    return rows[0];
  };
  /** The projects' ids (each named by id or by any key it has had); 404 for one that names none. */
  const projectIds = async (named: readonly string[] | null | undefined): Promise<string[] | null | undefined> => {
    if (named === undefined || named === null) return named;
    const ids: string[] = [];
    for (const name of named) {
      const id = (await projectOfKey(deps.pool, name.toUpperCase())) ?? (await projectOfId(deps, name));
      if (!id) throw new NotFoundError(webhookMessages.projectNotFound);
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  };
  const wake = () => deps.pool.query('select pg_notify($1, $2)', [WEBHOOK_WAKE_CHANNEL, '']);

  app.post('/', async (c) => {
    const body = await readJson(c, createWebhookBody);
    const url = await publicUrl(body.url);
    const projects = (await projectIds(body.projects)) ?? null;
    const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
    const { rows } = await deps.pool.query<SubscriptionRow>(
      `insert into webhooks.subscriptions (id, url, events, description, secret, created_by, projects)
       select $1, $2, $3, $4, $5, $6, $8
       where (select count(*) from webhooks.subscriptions) < $7
       returning ${COLUMNS}`,
      [
        randomUUID(),
        url,
        body.events,
        body.description ?? '',
        secret,
        c.var.actor.id,
        webhookLimits.perInstance,
        projects,
      ],
    );
    if (!rows[0]) throw new ConflictError(webhookMessages.limitReached);
    // The secret is shown once: never kept by a cache or an Idempotency-Key replay.
    c.header('Cache-Control', 'no-store');
    return c.json({ webhook: toDto(rows[0]), secret }, 201);
  });

  app.get('/', async (c) => {
    const { rows } = await deps.pool.query<SubscriptionRow>(
      `select ${COLUMNS} from webhooks.subscriptions order by created_at desc, id`,
    );
    return c.json({ webhooks: rows.map(toDto) });
  });

  app.get('/:id', async (c) => c.json({ webhook: toDto(await load(c.req.param('id'))) }));

  app.put('/:id', async (c) => {
    const current = await load(c.req.param('id'));
    const body = await readJson(c, updateWebhookBody);
    const url = body.url === undefined ? current.url : await publicUrl(body.url);
    const projects = body.projects === undefined ? current.projects : await projectIds(body.projects);
    const { rows } = await deps.pool.query<SubscriptionRow>(
      `update webhooks.subscriptions
       set url = $2, events = $3, description = $4, active = $5, projects = $6,
           -- Switched back on: it starts counting failures afresh.
           failed_in_a_row = case when $5 and not active then 0 else failed_in_a_row end
       where id = $1 returning ${COLUMNS}`,
      [
        current.id,
        url,
        body.events ?? current.events,
        body.description ?? current.description,
        body.active ?? current.active,
        projects,
      ],
    );
    if (!rows[0]) throw new NotFoundError(webhookMessages.notFound);
    if (rows[0].active && !current.active) await wake();
    return c.json({ webhook: toDto(rows[0]) });
  });

  app.delete('/:id', async (c) => {
    const { id } = await load(c.req.param('id'));
    await inTransaction(deps.pool, async (client) => {
      await client.query('delete from webhooks.subscriptions where id = $1', [id]);
      await client.query('delete from webhooks.outbox where webhook_id = $1', [id]);
      await client.query('delete from webhooks.deliveries where webhook_id = $1', [id]);
    });
    return c.body(null, 204);
  });

  app.get('/:id/deliveries', async (c) => {
    const { id } = await load(c.req.param('id'));
    const { rows } = await deps.pool.query<{
      id: string;
      event_id: string;
      type: string;
      attempt: number;
      status: number | null;
      error: string | null;
      duration_ms: number;
      at: Date;
    }>(
      `select id, event_id, type, attempt, status, error, duration_ms, at from webhooks.deliveries
       where webhook_id = $1 order by at desc, id limit $2`,
      [id, webhookLimits.deliveriesListed],
    );
    const deliveries: WebhookDeliveryDto[] = rows.map((row) => ({
      _id: row.id,
      eventId: row.event_id,
      type: row.type,
      attempt: row.attempt,
      status: row.status,
      error: row.error,
      durationMs: row.duration_ms,
      at: row.at.toISOString(),
    }));
    return c.json({ deliveries });
  });

  app.post('/:id/deliveries/:deliveryId/redeliver', async (c) => {
    const { id } = await load(c.req.param('id'));
    const deliveryId = c.req.param('deliveryId');
    if (!UUID.test(deliveryId)) throw new NotFoundError(webhookMessages.deliveryNotFound);
    // The same message again (its id, so a receiver can tell), sent on its own.
    const { rowCount } = await deps.pool.query(
      `insert into webhooks.outbox (webhook_id, message_id, kind, type, payload)
       select o.webhook_id, o.message_id, 'redelivery', o.type, o.payload
       from webhooks.deliveries d join webhooks.outbox o on o.id = d.outbox_id
       where d.id = $1 and d.webhook_id = $2`,
      [deliveryId, id],
    );
    if (rowCount !== 1) throw new NotFoundError(webhookMessages.deliveryNotFound);
    await wake();
    return accepted(c, 'Redelivery queued');
  });

  app.post('/:id/ping', async (c) => {
    const { id } = await load(c.req.param('id'));
    const payload = JSON.stringify({
      type: 'ping',
      timestamp: new Date().toISOString(),
      data: { webhook: { _id: id } },
    });
    await deps.pool.query(
      `insert into webhooks.outbox (webhook_id, message_id, kind, type, payload) values ($1, $2, 'ping', 'ping', $3)`,
      [id, `msg_${randomUUID()}`, payload],
    );
    await wake();
    return accepted(c, 'Ping queued');
  });

  return app;
}

const accepted = (c: Context, message: string) => c.json({ message }, 202);
