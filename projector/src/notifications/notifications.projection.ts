import type {
  BugDetailsEditedData,
  BugDueData,
  BugNumberedData,
  BugReportedData,
  BugStatusChangedData,
  ChatCreatedData,
  CommentAddedData,
  DevelopersAssignedData,
  DevelopersUnassignedData,
  MessageSentData,
  NotificationKind,
  NotificationPreferencesChangedData,
  NotificationsReadData,
  WebhookDisabledData,
} from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Insertable, type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { bugsBornIn, type Projection, READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { NotificationBugsTable, NotificationsTable } from './notifications.tables.js';

/** The live topic of one person's notifications: read-api lets only that person hear it. */
export const notificationsTopic = (userId: string) => `notifications:${userId}`;

type BugFacts = Insertable<NotificationBugsTable>;
type NotificationRow = Insertable<NotificationsTable>;

const BUG_FACT_EVENTS = new Set([
  'BugReported',
  'BugDetailsEdited',
  'BugNumbered',
  'DevelopersAssigned',
  'DevelopersUnassigned',
  'BugDeleted',
]);
const CHAT_EVENTS = new Set(['ChatCreated', 'ChatRenamed']);
const PREFERENCE_EVENTS = new Set(['NotificationPreferencesChanged']);
const NOTIFYING = new Set([
  'DevelopersAssigned',
  'BugStatusChanged',
  'CommentAdded',
  'MessageSent',
  'NotificationsRead',
  'BugDueSoon',
  'BugOverdue',
  'WebhookDisabled',
]);

const bugName = (bug: BugFacts) => `${bug.number ? `#${bug.number} ` : ''}${bug.title}`;

/**
 * Notifications (api.md "People"): each event that concerns someone becomes one
 * notification per person, never for its actor: assigned to you; mentioned (a comment or a
 * chat message); a comment on a bug you reported or are assigned (unless it mentions you:
 * then only "mentioned"); the status of a bug you reported changed. Ids derive from the
 * event id and the person, so a replayed batch makes nothing twice. `due_soon` and `overdue`
 * come from the due reminders' events (due-reminders.ts), to the reporter and the assignees.
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  version: 1,
  tables: ['notification_bugs', 'notification_chats', 'notification_prefs', 'notifications'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'notification_bugs')} (
      id text primary key,
      number integer,
      title text not null,
      reporter_id text not null,
      assignee_ids text[] not null,
      deleted boolean not null
    )`.execute(db);
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

  async apply(events: readonly RecordedEvent[], { db, schema, topics, copy }) {
    const relevant = events.filter(
      (e) =>
        BUG_FACT_EVENTS.has(e.type) ||
        CHAT_EVENTS.has(e.type) ||
        NOTIFYING.has(e.type) ||
        PREFERENCE_EVENTS.has(e.type),
    );
    if (relevant.length === 0) return;

    // What the batch needs: the bugs and chats it names, and the names of its actors.
    const bugIds = new Set<string>();
    const chatIds = new Set<string>();
    const actorIds = new Set<string>();
    for (const e of relevant) {
      const d = e.data as { bugId?: string; chatId?: string };
      if (d.bugId) bugIds.add(d.bugId);
      if (d.chatId) chatIds.add(d.chatId);
      if (e.metadata.actorId) actorIds.add(e.metadata.actorId);
    }
    const bugs = new Map<string, BugFacts>();
    const born = bugsBornIn(relevant);
    const storedBugIds = [...bugIds].filter((id) => !born.has(id));
    if (storedBugIds.length > 0) {
      const rows = await db
        .withSchema(schema)
        .selectFrom('notification_bugs')
        .selectAll()
        .where('id', 'in', storedBugIds)
        .execute();
      for (const row of rows) bugs.set(row.id, row);
    }
    const chats = new Map<string, string>();
    if (chatIds.size > 0) {
      const rows = await db
        .withSchema(schema)
        .selectFrom('notification_chats')
        .selectAll()
        .where('id', 'in', [...chatIds])
        .execute();
      for (const row of rows) chats.set(row.id, row.name);
    }
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

    const touchedBugs = new Set<string>();
    const touchedChats = new Set<string>();
    const made: NotificationRow[] = [];
    const reads: NotificationsReadData[] = [];
    const prefChanges: { userId: string; email: string; position: string }[] = [];
    for (const e of relevant) {
      const actorId = e.metadata.actorId;
      const actorName = (actorId && names.get(actorId)) || e.metadata.actorName || 'Someone';
      const notify = (
        userIds: Iterable<string>,
        kind: NotificationKind,
        text: string,
        refs: { bugId?: string; chatId?: string },
      ) => {
        // An import brings the past in (docs/import.md): nobody is told of it as if it happened now.
        if (e.metadata.importedFrom) return;
        for (const userId of new Set(userIds)) {
          if (!userId || userId === actorId) continue;
          made.push({
            id: `${e.id}:${userId}`,
            user_id: userId,
            kind,
            text,
            bug_id: refs.bugId ?? null,
            chat_id: refs.chatId ?? null,
            actor_id: actorId,
            created_at: e.metadata.occurredAt,
            mail: 'immediate',
            position: e.position,
          });
        }
      };
      switch (e.type) {
        case 'BugReported': {
          const d = e.data as BugReportedData;
          bugs.set(d.bugId, {
            id: d.bugId,
            number: d.number ?? null,
            title: d.title,
            reporter_id: d.reporterId,
            assignee_ids: [],
            deleted: false,
          });
          touchedBugs.add(d.bugId);
          break;
        }
        case 'BugNumbered': {
          const d = e.data as BugNumberedData;
          const bug = bugs.get(d.bugId);
          if (bug) bugs.set(d.bugId, { ...bug, number: bug.number ?? d.number });
          touchedBugs.add(d.bugId);
          break;
        }
        case 'BugDetailsEdited': {
          const d = e.data as BugDetailsEditedData;
          const bug = bugs.get(d.bugId);
          if (bug && d.changes.title !== undefined) bugs.set(d.bugId, { ...bug, title: d.changes.title });
          touchedBugs.add(d.bugId);
          break;
        }
        case 'DevelopersAssigned': {
          const d = e.data as DevelopersAssignedData;
          const bug = bugs.get(d.bugId);
          if (!bug) break;
          const added = d.developerIds.filter((devId) => !bug.assignee_ids?.includes(devId));
          bugs.set(d.bugId, { ...bug, assignee_ids: [...(bug.assignee_ids ?? []), ...added] });
          touchedBugs.add(d.bugId);
          notify(added, 'assigned', `${actorName} assigned you to ${bugName(bug)}`, { bugId: d.bugId });
          break;
        }
        case 'DevelopersUnassigned': {
          const d = e.data as DevelopersUnassignedData;
          const bug = bugs.get(d.bugId);
          if (!bug) break;
          bugs.set(d.bugId, {
            ...bug,
            assignee_ids: (bug.assignee_ids ?? []).filter((devId) => !d.developerIds.includes(devId)),
          });
          touchedBugs.add(d.bugId);
          break;
        }
        case 'BugDeleted': {
          const bugId = (e.data as { bugId: string }).bugId;
          const bug = bugs.get(bugId);
          if (bug) bugs.set(bugId, { ...bug, deleted: true });
          touchedBugs.add(bugId);
          break;
        }
        case 'BugStatusChanged': {
          const d = e.data as BugStatusChangedData;
          const bug = bugs.get(d.bugId);
          if (!bug || bug.deleted) break;
          notify([bug.reporter_id], 'status_changed', `${actorName} changed the status of ${bugName(bug)} to ${d.to}`, {
            bugId: d.bugId,
          });
          break;
        }
        case 'CommentAdded': {
          const d = e.data as CommentAddedData;
          const bug = bugs.get(d.bugId);
          if (!bug || bug.deleted) break;
          const mentioned = new Set(d.mentions);
          notify(mentioned, 'mentioned', `${actorName} mentioned you on ${bugName(bug)}`, { bugId: d.bugId });
          const followers = [bug.reporter_id, ...(bug.assignee_ids ?? [])].filter((userId) => !mentioned.has(userId));
          notify(followers, 'commented', `${actorName} commented on ${bugName(bug)}`, { bugId: d.bugId });
          break;
        }
        case 'BugDueSoon':
        case 'BugOverdue': {
          const d = e.data as BugDueData;
          const bug = bugs.get(d.bugId);
          if (!bug || bug.deleted) break;
          const soon = e.type === 'BugDueSoon';
          notify(
            [bug.reporter_id, ...(bug.assignee_ids ?? [])],
            soon ? 'due_soon' : 'overdue',
            `${bugName(bug)} is ${soon ? 'due within a day' : 'overdue'}`,
            { bugId: d.bugId },
          );
          break;
        }
        case 'ChatCreated': {
          const d = e.data as ChatCreatedData;
          chats.set(d.chatId, d.name);
          touchedChats.add(d.chatId);
          break;
        }
        case 'ChatRenamed': {
          const d = e.data as { chatId: string; name: string };
          chats.set(d.chatId, d.name);
          touchedChats.add(d.chatId);
          break;
        }
        case 'MessageSent': {
          const d = e.data as MessageSentData;
          if (d.mentions.length === 0) break;
          const chatName = chats.get(d.chatId);
          notify(
            d.mentions,
            'mentioned',
            `${actorName} mentioned you in ${chatName ? `the chat ${chatName}` : 'a chat'}`,
            {
              chatId: d.chatId,
            },
          );
          break;
        }
        case 'WebhookDisabled': {
          // Every active admin hears of it (as admins are now: the live users read model).
          const d = e.data as WebhookDisabledData;
          const admins = await db
            .withSchema(READ_MODEL_SCHEMA)
            .selectFrom('users')
            .select('id')
            .where('role', '=', 'admin')
            .where('deactivated', '=', false)
            .execute();
          notify(
            admins.map((a) => a.id),
            'webhook_disabled',
            `Webhook ${d.url} was switched off after ${d.failedEvents} events in a row failed`,
            {},
          );
          break;
        }
        case 'NotificationsRead':
          reads.push(e.data as NotificationsReadData);
          break;
        case 'NotificationPreferencesChanged': {
          const d = e.data as NotificationPreferencesChangedData;
          prefChanges.push({ userId: d.userId, email: d.email, position: e.position });
          break;
        }
        default:
          break;
      }
    }

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
          })),
        )
        .execute();
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
    for (const userId of new Set([...made.map((n) => n.user_id), ...reads.map((r) => r.userId)])) {
      topics.add(notificationsTopic(userId));
    }
  },
};
