import {
  eventsOf,
  legacyProjectId,
  type NotificationKind,
  type NotificationsReadData,
  type Role,
  relationEdge,
} from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Insertable, type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { defineProjection, type Recorded } from '../runtime/handlers.js';
import { bugsBornIn, READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { NotificationBugsTable, NotificationsTable } from './notifications.tables.js';

/**
 * The live topic of one person's notifications: read-api lets only that person hear it. When
 * every notification the batch made them is about a bug, the topic names those bugs' projects
 * (`notifications:{id}|{id}|{projects}`), so one who cannot see any of them hears nothing.
 */
export const notificationsTopic = (userId: string, projects: ReadonlySet<string> | null = null) =>
  projects && projects.size > 0
    ? `notifications:${userId}|${userId}|${[...projects].sort().join(',')}`
    : `notifications:${userId}`;

type BugFacts = Insertable<NotificationBugsTable> & { status: string; watcher_ids: string[] };
type NotificationRow = Insertable<NotificationsTable>;

/** Told by mail at once whatever the person's mail preference (api.md "Second round of safety"). */
const securityNotices: ReadonlySet<string> = new Set(['mfa_reset']);

const bugName = (bug: BugFacts) => `${bug.number ? `#${bug.number} ` : ''}${bug.title}`;

/** What `load` reads for a batch: the bugs and chats it names, its actors' names, the active admins. */
export type StoredForNotifications = Readonly<{
  bugs: readonly BugFacts[];
  chats: readonly { id: string; name: string }[];
  names: ReadonlyMap<string, string>;
  /** Read only when the batch switches a webhook off or pauses a rule. */
  admins: readonly string[];
  /** The active people of each role a rule's `notify` names in the batch. */
  roles?: ReadonlyMap<string, readonly string[]>;
  /** Each team project's leads, by project id: read only for the projects a report left for triage. */
  leads?: ReadonlyMap<string, readonly string[]>;
  /** Which bug blocks which, among the bugs a close or a relation of the batch concerns. */
  blocks?: readonly { blocker_id: string; blocked_id: string }[];
}>;

/** A batch's changes: the bug and chat facts it folds, the notifications it makes, reads and preferences. */
export class NotificationBatch {
  readonly bugs = new Map<string, BugFacts>();
  readonly chats = new Map<string, string>();
  readonly names: ReadonlyMap<string, string>;
  readonly admins: readonly string[];
  readonly roles: ReadonlyMap<string, readonly string[]>;
  readonly leads: ReadonlyMap<string, readonly string[]>;
  /** Blockers by blocked bug, and blocked bugs by blocker (what the batch knows of them). */
  readonly blockersOf = new Map<string, Set<string>>();
  readonly blockedBy = new Map<string, Set<string>>();
  /** Edges the batch added (true) or removed (false), by `blocker\u0000blocked`. */
  readonly blockChanges = new Map<string, boolean>();
  readonly touchedBugs = new Set<string>();
  readonly touchedChats = new Set<string>();
  readonly made: NotificationRow[] = [];
  /** The projects of the bugs each notification made is about, by person; null once one is about no bug. */
  readonly madeIn = new Map<string, Set<string> | null>();
  readonly reads: NotificationsReadData[] = [];
  readonly prefChanges: { userId: string; email: string; position: string }[] = [];

  constructor(stored: StoredForNotifications) {
    for (const bug of stored.bugs) this.bugs.set(bug.id, bug);
    for (const chat of stored.chats) this.chats.set(chat.id, chat.name);
    this.names = stored.names;
    this.admins = stored.admins;
    this.roles = stored.roles ?? new Map();
    this.leads = stored.leads ?? new Map();
    for (const edge of stored.blocks ?? []) this.link(edge.blocker_id, edge.blocked_id, true);
  }

  /** Adds or removes `blocker` blocks `blocked` in what the batch knows. */
  link(blocker: string, blocked: string, on: boolean): void {
    const toggle = (map: Map<string, Set<string>>, key: string, value: string) => {
      if (!map.has(key)) map.set(key, new Set());
      if (on) map.get(key)!.add(value);
      else map.get(key)!.delete(value);
    };
    toggle(this.blockersOf, blocked, blocker);
    toggle(this.blockedBy, blocker, blocked);
  }

  /** The bug's facts changed by the batch (kept in `bugs`, written at the end). */
  change(bugId: string, change: (bug: BugFacts) => BugFacts): BugFacts | undefined {
    const bug = this.bugs.get(bugId);
    if (!bug) return undefined;
    const next = change(bug);
    this.bugs.set(bugId, next);
    this.touchedBugs.add(bugId);
    return next;
  }

  /** The actor as people call them now, else as the event named them. */
  actorName(event: RecordedEvent): string {
    const actorId = event.metadata.actorId;
    return (actorId && this.names.get(actorId)) || event.metadata.actorName || 'Someone';
  }

  /** One notification per person (never the actor), its id derived from the event and the person. */
  notify(
    event: RecordedEvent,
    userIds: Iterable<string>,
    kind: NotificationKind,
    text: string,
    refs: { bugId?: string; chatId?: string },
  ): void {
    // An import brings the past in (docs/import.md): nobody is told of it as if it happened now.
    if (event.metadata.importedFrom) return;
    const actorId = event.metadata.actorId;
    const projectId = refs.bugId ? this.bugs.get(refs.bugId)?.project_id : undefined;
    for (const userId of new Set(userIds)) {
      if (!userId || userId === actorId) continue;
      const projects = this.madeIn.get(userId);
      if (projectId === undefined) this.madeIn.set(userId, null);
      else if (projects !== null) this.madeIn.set(userId, (projects ?? new Set<string>()).add(projectId));
      this.made.push({
        id: `${event.id}:${userId}`,
        user_id: userId,
        kind,
        text,
        bug_id: refs.bugId ?? null,
        chat_id: refs.chatId ?? null,
        actor_id: actorId,
        created_at: event.metadata.occurredAt,
        mail: 'immediate',
        position: event.position,
      });
    }
  }

  /** A live bug the batch knows (deleted ones tell nobody). */
  liveBug(bugId: string): BugFacts | undefined {
    const bug = this.bugs.get(bugId);
    return bug && !bug.deleted ? bug : undefined;
  }
}

const dueNotice = (batch: NotificationBatch, event: Recorded<'BugDueSoon' | 'BugOverdue'>) => {
  const bug = batch.liveBug(event.data.bugId);
  if (!bug) return;
  const soon = event.type === 'BugDueSoon';
  batch.notify(
    event,
    [bug.reporter_id, ...(bug.assignee_ids ?? [])],
    soon ? 'due_soon' : 'overdue',
    `${bugName(bug)} is ${soon ? 'due within a day' : 'overdue'}`,
    { bugId: bug.id },
  );
};

/**
 * A relation: `blocks` edges for the unblocked notice; a duplicate's reporter follows the
 * original (its comments and status changes) from then on, until the relation is removed.
 */
const related = (batch: NotificationBatch, event: Recorded<'BugRelationAdded' | 'BugRelationRemoved'>) => {
  const d = event.data;
  const on = event.type === 'BugRelationAdded';
  const edge = relationEdge(d.bugId, d.type, d.otherBugId);
  if (edge.kind === 'blocks') {
    batch.link(edge.from, edge.to, on);
    batch.blockChanges.set(`${edge.from}\u0000${edge.to}`, on);
  } else if (edge.kind === 'duplicate_of') {
    const duplicate = batch.bugs.get(edge.from);
    if (!duplicate) return;
    batch.change(edge.to, (original) => ({
      ...original,
      watcher_ids: on
        ? [...new Set([...original.watcher_ids, duplicate.reporter_id])]
        : original.watcher_ids.filter((id) => id !== duplicate.reporter_id),
    }));
  }
};

const chatNamed = (batch: NotificationBatch, event: Recorded<'ChatCreated' | 'ChatRenamed'>) => {
  batch.chats.set(event.data.chatId, event.data.name);
  batch.touchedChats.add(event.data.chatId);
};

/**
 * Notifications (api.md "People"): each event that concerns someone becomes one
 * notification per person, never for its actor: assigned to you; mentioned (a comment or a
 * chat message); a comment on a bug you reported or are assigned (unless it mentions you:
 * then only "mentioned"); the status of a bug you reported changed. Ids derive from the
 * event id and the person, so a replayed batch makes nothing twice. `due_soon` and `overdue`
 * come from the due reminders' events (due-reminders.ts), to the reporter and the assignees.
 */
export const notificationsProjection = defineProjection({
  name: 'notifications',
  // 2: each bug's project, for the live topics (issue 35).
  // 3: statuses, blocks and watchers (issue 36): unblocked notices, duplicates' reporters follow the original.
  version: 3,
  tables: ['notification_bugs', 'notification_chats', 'notification_prefs', 'notifications', 'notification_blocks'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'notification_bugs')} (
      id text primary key,
      number integer,
      title text not null,
      reporter_id text not null,
      assignee_ids text[] not null,
      deleted boolean not null,
      project_id text not null,
      status text not null default 'Open',
      watcher_ids text[] not null default '{}'
    )`.execute(db);
    await sql`create table ${sql.id(schema, 'notification_blocks')} (
      blocker_id text not null,
      blocked_id text not null,
      primary key (blocker_id, blocked_id)
    )`.execute(db);
    await sql`create index ${sql.id(`${schema}_notification_blocks_blocked`)} on ${sql.id(schema, 'notification_blocks')} (blocked_id)`.execute(
      db,
    );
    await sql`create table ${sql.id(schema, 'notification_chats')} (id text primary key, name text not null)`.execute(
      db,
    );
    // How each person wants mail, as of the events folded so far: each notification keeps the choice made when it was.
    await sql`create table ${sql.id(schema, 'notification_prefs')} (user_id text primary key, email text not null)`.execute(
      db,
    );
    await sql`create table ${sql.id(schema, 'notifications')} (
      id text primary key,
      user_id text not null,
      kind text not null,
      text text not null,
      bug_id text,
      chat_id text,
      actor_id text,
      created_at timestamptz not null,
      read_at timestamptz,
      mail text not null,
      position text collate "C" not null
    )`.execute(db);
    await sql`create index ${sql.id(`${schema}_notifications_user`)} on ${sql.id(schema, 'notifications')} (user_id, position desc)`.execute(
      db,
    );
    await sql`create index ${sql.id(`${schema}_notifications_unread`)} on ${sql.id(schema, 'notifications')} (user_id) where read_at is null`.execute(
      db,
    );
  },

  async load(events, { db, schema }): Promise<StoredForNotifications> {
    const bugIds = new Set<string>();
    const chatIds = new Set<string>();
    const actorIds = new Set<string>();
    const relationIds = new Set<string>();
    let closes = false;
    for (const e of events) {
      if ('otherBugId' in e.data) {
        bugIds.add(e.data.otherBugId);
        relationIds.add(e.data.otherBugId);
        relationIds.add(e.data.bugId);
      }
      if (e.type === 'BugStatusChanged' && (e.data as { to: string }).to === 'Closed') {
        closes = true;
        relationIds.add((e.data as { bugId: string }).bugId);
      }
      if ('bugId' in e.data) bugIds.add(e.data.bugId);
      if ('chatId' in e.data) chatIds.add(e.data.chatId);
      if (e.metadata.actorId) actorIds.add(e.metadata.actorId);
    }
    // Blocks around the closes and relations of the batch: the bugs they block, and all those bugs' blockers.
    let blocks: { blocker_id: string; blocked_id: string }[] = [];
    if (closes || relationIds.size > 0) {
      const ids = [...relationIds];
      const { rows } = await sql<{ blocker_id: string; blocked_id: string }>`
        with near as (
          select blocked_id from ${sql.id(schema, 'notification_blocks')} where blocker_id = any(${ids}::text[])
          union select unnest(${ids}::text[]))
        select b.blocker_id, b.blocked_id from ${sql.id(schema, 'notification_blocks')} b
        where b.blocked_id in (select blocked_id from near)`.execute(db);
      blocks = rows;
      for (const edge of rows) {
        bugIds.add(edge.blocker_id);
        bugIds.add(edge.blocked_id);
      }
    }
    // A bug reported in this batch has no stored row yet.
    const born = bugsBornIn(events);
    const storedBugIds = [...bugIds].filter((id) => !born.has(id));
    const bugs =
      storedBugIds.length > 0
        ? await db
            .withSchema(schema)
            .selectFrom('notification_bugs')
            .selectAll()
            .where('id', 'in', storedBugIds)
            .execute()
        : [];
    const chats =
      chatIds.size > 0
        ? await db
            .withSchema(schema)
            .selectFrom('notification_chats')
            .selectAll()
            .where('id', 'in', [...chatIds])
            .execute()
        : [];
    const names = new Map<string, string>();
    if (actorIds.size > 0) {
      // Names as people are called now (the live users read model).
      const rows = await db
        .withSchema(READ_MODEL_SCHEMA)
        .selectFrom('users')
        .select(['id', 'name'])
        .where('id', 'in', [...actorIds])
        .execute();
      for (const row of rows) names.set(row.id, row.name);
    }
    // A webhook switched off or a rule paused: every active admin hears of it; a rule's notify, every
    // active person of the role it names (as people are now: the live users read model).
    const wanted = new Set<string>();
    if (events.some((e) => e.type === 'WebhookDisabled' || e.type === 'AutomationPaused')) wanted.add('admin');
    for (const e of eventsOf(events, 'AutomationRan'))
      for (const o of e.data.outcomes) if (o.outcome === 'done' && o.role) wanted.add(o.role);
    const roles = new Map<string, string[]>();
    if (wanted.size > 0) {
      const rows = await db
        .withSchema(READ_MODEL_SCHEMA)
        .selectFrom('users')
        .select(['id', 'role'])
        .where('role', 'in', [...wanted] as Role[])
        .where('deactivated', '=', false)
        .execute();
      for (const row of rows) roles.set(row.role, [...(roles.get(row.role) ?? []), row.id]);
    }
    const admins = roles.get('admin') ?? [];
    // A report left for triage: the project's leads as they are now (the live projects read model).
    const triaged = [...new Set(eventsOf(events, 'BugInTriage').map((e) => e.data.projectId))];
    const leads = new Map<string, string[]>();
    if (triaged.length > 0) {
      const rows = await db
        .withSchema(READ_MODEL_SCHEMA)
        .selectFrom('project_members')
        .select(['project_id', 'user_id'])
        .where('project_id', 'in', triaged)
        .where('role', '=', 'lead')
        .execute();
      for (const row of rows) leads.set(row.project_id, [...(leads.get(row.project_id) ?? []), row.user_id]);
    }
    return { bugs: bugs as BugFacts[], chats, names, admins, roles, leads, blocks };
  },
  begin: (stored: StoredForNotifications) => new NotificationBatch(stored),
  on: {
    BugReported(batch, e) {
      const d = e.data;
      batch.bugs.set(d.bugId, {
        id: d.bugId,
        number: d.number ?? null,
        title: d.title,
        reporter_id: d.reporterId,
        assignee_ids: [],
        deleted: false,
        project_id: d.projectId ?? legacyProjectId,
        status: d.status,
        watcher_ids: [],
      });
      batch.touchedBugs.add(d.bugId);
    },
    BugMovedToProject(batch, e) {
      const d = e.data;
      const bug = batch.bugs.get(d.bugId);
      if (bug) batch.bugs.set(d.bugId, { ...bug, project_id: d.projectId });
      batch.touchedBugs.add(d.bugId);
    },
    BugNumbered(batch, e) {
      const d = e.data;
      const bug = batch.bugs.get(d.bugId);
      if (bug) batch.bugs.set(d.bugId, { ...bug, number: bug.number ?? d.number });
      batch.touchedBugs.add(d.bugId);
    },
    BugDetailsEdited(batch, e) {
      const d = e.data;
      const bug = batch.bugs.get(d.bugId);
      if (bug && d.changes.title !== undefined) batch.bugs.set(d.bugId, { ...bug, title: d.changes.title });
      batch.touchedBugs.add(d.bugId);
    },
    DevelopersAssigned(batch, e) {
      const d = e.data;
      const bug = batch.bugs.get(d.bugId);
      if (!bug) return;
      const added = d.developerIds.filter((devId) => !bug.assignee_ids?.includes(devId));
      batch.bugs.set(d.bugId, { ...bug, assignee_ids: [...(bug.assignee_ids ?? []), ...added] });
      batch.touchedBugs.add(d.bugId);
      batch.notify(e, added, 'assigned', `${batch.actorName(e)} assigned you to ${bugName(bug)}`, { bugId: d.bugId });
    },
    DevelopersUnassigned(batch, e) {
      const d = e.data;
      const bug = batch.bugs.get(d.bugId);
      if (!bug) return;
      batch.bugs.set(d.bugId, {
        ...bug,
        assignee_ids: (bug.assignee_ids ?? []).filter((devId) => !d.developerIds.includes(devId)),
      });
      batch.touchedBugs.add(d.bugId);
    },
    BugDeleted(batch, e) {
      const { bugId } = e.data;
      const bug = batch.bugs.get(bugId);
      if (bug) batch.bugs.set(bugId, { ...bug, deleted: true });
      batch.touchedBugs.add(bugId);
    },
    BugStatusChanged(batch, e) {
      const d = e.data;
      batch.change(d.bugId, (b) => ({ ...b, status: d.to }));
      const bug = batch.liveBug(d.bugId);
      if (!bug) return;
      const text = `${batch.actorName(e)} changed the status of ${bugName(bug)} to ${d.to}`;
      batch.notify(e, [bug.reporter_id, ...bug.watcher_ids], 'status_changed', text, { bugId: d.bugId });
      if (d.to !== 'Closed') return;
      // The last open blocker closed: the blocked bug's assignees may go on.
      for (const blockedId of batch.blockedBy.get(d.bugId) ?? []) {
        const blocked = batch.liveBug(blockedId);
        if (!blocked || blocked.status === 'Closed') continue;
        const stillBlocked = [...(batch.blockersOf.get(blockedId) ?? [])].some((id) => {
          const blocker = batch.liveBug(id);
          return blocker !== undefined && blocker.status !== 'Closed';
        });
        if (stillBlocked) continue;
        const unblocked = `${bugName(bug)} was closed: ${bugName(blocked)} is no longer blocked`;
        batch.notify(e, blocked.assignee_ids ?? [], 'unblocked', unblocked, { bugId: blockedId });
      }
    },
    BugRelationAdded: related,
    BugRelationRemoved: related,
    CommentAdded(batch, e) {
      const d = e.data;
      const bug = batch.liveBug(d.bugId);
      if (!bug) return;
      const actorName = batch.actorName(e);
      const mentioned = new Set(d.mentions);
      batch.notify(e, mentioned, 'mentioned', `${actorName} mentioned you on ${bugName(bug)}`, { bugId: d.bugId });
      const followers = [bug.reporter_id, ...(bug.assignee_ids ?? []), ...bug.watcher_ids].filter(
        (userId) => !mentioned.has(userId),
      );
      batch.notify(e, followers, 'commented', `${actorName} commented on ${bugName(bug)}`, { bugId: d.bugId });
    },
    BugInTriage(batch, e) {
      const bug = batch.liveBug(e.data.bugId);
      if (!bug) return;
      const text = `${batch.actorName(e)} reported ${bugName(bug)} with no assignee: it waits in triage`;
      batch.notify(e, batch.leads.get(e.data.projectId) ?? [], 'triage', text, { bugId: bug.id });
    },
    BugDueSoon: dueNotice,
    BugOverdue: dueNotice,
    BugSlaBreached(batch, e) {
      const d = e.data;
      const bug = batch.liveBug(d.bugId);
      if (!bug) return;
      // The assignees answer for it; a bug nobody holds tells its reporter (api.md: "notifies the assignees").
      const people = (bug.assignee_ids ?? []).length > 0 ? (bug.assignee_ids ?? []) : [bug.reporter_id];
      const missed = d.target === 'respond' ? 'was not responded to' : 'was not resolved';
      batch.notify(e, people, 'sla_breached', `${bugName(bug)} ${missed} in time (SLA ${d.policyName})`, {
        bugId: bug.id,
      });
    },
    ChatCreated: chatNamed,
    ChatRenamed: chatNamed,
    MessageSent(batch, e) {
      const d = e.data;
      if (d.mentions.length === 0) return;
      const chatName = batch.chats.get(d.chatId);
      const where = chatName ? `the chat ${chatName}` : 'a chat';
      batch.notify(e, d.mentions, 'mentioned', `${batch.actorName(e)} mentioned you in ${where}`, { chatId: d.chatId });
    },
    WebhookDisabled(batch, e) {
      const d = e.data;
      const text = `Webhook ${d.url} was switched off after ${d.failedEvents} events in a row failed`;
      batch.notify(e, batch.admins, 'webhook_disabled', text, {});
    },
    AutomationRan(batch, e) {
      const d = e.data;
      const bug = batch.liveBug(d.bugId);
      if (!bug) return;
      for (const o of d.outcomes) {
        if (o.type !== 'notify' || o.outcome !== 'done') continue;
        const people = [...(o.userIds ?? []), ...(o.role ? (batch.roles.get(o.role) ?? []) : [])];
        batch.notify(e, people, 'rule', `Rule ${d.name ?? 'without a name'}: ${bugName(bug)}`, { bugId: bug.id });
      }
    },
    AutomationPaused(batch, e) {
      const d = e.data;
      const text = `An automation rule was paused after ${d.failures} failing runs in a row: ${d.reason}`;
      batch.notify(e, batch.admins, 'rule_paused', text, {});
    },
    MfaReset(batch, e) {
      // A security notice: if it was not expected, the person should hear of it at once.
      const text = `${batch.actorName(e)} turned off two-factor authentication on your account. Set it up again in Account security`;
      batch.notify(e, [e.data.userId], 'mfa_reset', text, {});
    },
    NotificationsRead(batch, e) {
      batch.reads.push(e.data);
    },
    NotificationPreferencesChanged(batch, e) {
      batch.prefChanges.push({ userId: e.data.userId, email: e.data.email, position: e.position });
    },
  },

  async write(batch, { db, schema, topics, copy }) {
    const { bugs, chats, touchedBugs, touchedChats, made, reads, prefChanges } = batch;
    for (const rows of chunks([...touchedBugs].flatMap((bugId) => (bugs.has(bugId) ? [bugs.get(bugId)!] : [])))) {
      await db
        .withSchema(schema)
        .insertInto('notification_bugs')
        .values(rows)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            number: eb.ref('excluded.number'),
            title: eb.ref('excluded.title'),
            assignee_ids: eb.ref('excluded.assignee_ids'),
            deleted: eb.ref('excluded.deleted'),
            project_id: eb.ref('excluded.project_id'),
            status: eb.ref('excluded.status'),
            watcher_ids: eb.ref('excluded.watcher_ids'),
          })),
        )
        .execute();
    }
    const edges = [...batch.blockChanges].map(([key, on]) => ({ key: key.split('\u0000') as [string, string], on }));
    const addedEdges = edges.filter((x) => x.on).map((x) => x.key);
    const removedEdges = edges.filter((x) => !x.on).map((x) => x.key);
    if (removedEdges.length > 0) {
      await sql`delete from ${sql.id(schema, 'notification_blocks')} b
        using unnest(${removedEdges.map((x) => x[0])}::text[], ${removedEdges.map((x) => x[1])}::text[]) as x(blocker_id, blocked_id)
        where b.blocker_id = x.blocker_id and b.blocked_id = x.blocked_id`.execute(db);
    }
    if (addedEdges.length > 0) {
      await sql`insert into ${sql.id(schema, 'notification_blocks')} (blocker_id, blocked_id)
        select * from unnest(${addedEdges.map((x) => x[0])}::text[], ${addedEdges.map((x) => x[1])}::text[])
        on conflict do nothing`.execute(db);
    }
    const chatRows = [...touchedChats].map((chatId) => ({ id: chatId, name: chats.get(chatId) ?? '' }));
    for (const rows of chunks(chatRows)) {
      await db
        .withSchema(schema)
        .insertInto('notification_chats')
        .values(rows)
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
        .execute();
    }
    // Each notification is mailed as its person wanted when it was made (api.md: made while "off", never mailed).
    const people = [...new Set([...made.map((n) => n.user_id), ...prefChanges.map((p) => p.userId)])];
    const stored = new Map<string, string>();
    if (people.length > 0) {
      const rows = await db
        .withSchema(schema)
        .selectFrom('notification_prefs')
        .selectAll()
        .where('user_id', 'in', people)
        .execute();
      for (const row of rows) stored.set(row.user_id, row.email);
    }
    for (const notification of made) {
      // A security notice reaches the person at once, whatever they chose for the rest.
      if (securityNotices.has(notification.kind)) continue;
      const change = prefChanges.findLast(
        (p) => p.userId === notification.user_id && p.position < notification.position,
      );
      notification.mail = change?.email ?? stored.get(notification.user_id) ?? 'immediate';
    }
    const latest = new Map(prefChanges.map((p) => [p.userId, p.email]));
    for (const rows of chunks([...latest].map(([user_id, email]) => ({ user_id, email })))) {
      await db
        .withSchema(schema)
        .insertInto('notification_prefs')
        .values(rows)
        .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ email: eb.ref('excluded.email') })))
        .execute();
    }
    if (copy) {
      // A rebuild's tables are fresh and each id names one event and person: nothing to conflict with.
      await copy(
        'notifications',
        ['id', 'user_id', 'kind', 'text', 'bug_id', 'chat_id', 'actor_id', 'created_at', 'mail', 'position'],
        made.map((n) => [
          n.id,
          n.user_id,
          n.kind,
          n.text,
          n.bug_id ?? null,
          n.chat_id ?? null,
          n.actor_id ?? null,
          n.created_at,
          n.mail,
          n.position,
        ]),
      );
    } else {
      for (const rows of chunks(made)) {
        await db
          .withSchema(schema)
          .insertInto('notifications')
          .values(rows)
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
    }
    for (const read of reads) {
      let query = db
        .withSchema(schema)
        .updateTable('notifications')
        .set({ read_at: read.upTo })
        .where('user_id', '=', read.userId)
        .where('read_at', 'is', null);
      query = read.all
        ? query.where('created_at', '<=', sql<Date>`${read.upTo}::timestamptz`)
        : query.where('id', 'in', read.ids.length > 0 ? read.ids : ['']);
      await query.execute();
    }
    for (const userId of new Set(made.map((n) => n.user_id))) {
      topics.add(notificationsTopic(userId, batch.madeIn.get(userId) ?? null));
    }
    for (const userId of new Set(reads.map((r) => r.userId))) topics.add(notificationsTopic(userId));
  },
});
