import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type BugCommand,
  bugDecider,
  type ChatCommand,
  ConflictError,
  chatDecider,
  generalProject,
  NotFoundError,
  streams,
  type TimelineCommand,
  timelineDecider,
} from '@bugtrail/domain';
import { createTestDatabase } from '@bugtrail/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../port.js';
import { PostgresEventStore } from '../postgres/postgres-event-store.js';
import { migrateEventStore } from '../postgres/schema.js';
import { type CommandContext, CommandHandler } from './command-handler.js';

const now = '2030-06-15T12:00:00.000Z';
const tester: Actor = { id: 'tester-1', role: 'tester' };
const developer: Actor = { id: 'dev-1', role: 'developer' };
const admin: Actor = { id: 'admin-1', role: 'admin' };

const context = (actor: Actor | null, over: Partial<CommandContext> = {}): CommandContext => ({
  actor,
  correlationId: randomUUID(),
  idempotencyKey: null,
  ...over,
});

const report = (bugId: string): BugCommand => ({
  type: 'ReportBug',
  data: {
    bugId,
    number: 1,
    project: { exists: true, id: generalProject.id, private: false, archived: false, members: {}, access: 'reporters' },
    projectNumber: 1,
    title: 'Login button broken',
    description: 'Clicking login does nothing at all',
    assigneeIds: [developer.id],
    newItemIds: [],
  },
  metadata: { actor: tester, now },
});
const setStatus = (bugId: string, status: 'Open' | 'In Progress' | 'Closed', actor = developer): BugCommand => ({
  type: 'ChangeBugStatus',
  data: { bugId, status },
  metadata: { actor, now },
});

describe('the command handler (the one write path), on PostgreSQL', () => {
  let pool: pg.Pool;
  let store: EventStore;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    pool = new pg.Pool({ connectionString: database.url, max: 20 });
    pool.on('error', () => {});
    await migrateEventStore(pool);
    store = new PostgresEventStore(pool);
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await drop();
  });

  async function reportedBug(handler = new CommandHandler(store)): Promise<string> {
    const bugId = randomUUID();
    await handler.handle(streams.bug(bugId), bugDecider, report(bugId), context(tester), { mustBeNew: true });
    return bugId;
  }
  const typesOf = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);

  it('decides on what another process appended since it last looked (its cache folds only the new events)', async () => {
    const mine = new CommandHandler(store);
    const theirs = new CommandHandler(store);
    const bugId = await reportedBug(mine);
    expect((await mine.load(streams.bug(bugId), bugDecider)).revision).toBe(1);
    await theirs.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'In Progress'), context(developer));
    // Mine last saw revision 1: a command pinned to it is stale...
    await expect(
      mine.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Closed'), context(developer), {
        expectedVersion: 1,
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    // ...and an unpinned one decides on the new state: In Progress → Closed.
    const handled = await mine.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Closed'), context(developer));
    expect(handled.newEvents).toEqual([
      { type: 'BugStatusChanged', data: { bugId, from: 'In Progress', to: 'Closed' } },
    ]);
    expect(handled.revision).toBe(3);
  });

  it('re-reads and re-decides after a conflict, with jittered backoff, when the command commutes', async () => {
    const bugId = await reportedBug();
    const other = new CommandHandler(store);
    const delays: number[] = [];
    let raced = false;
    // A store that lets another writer in just before this handler's first append.
    const racing: EventStore = Object.create(store, {
      append: {
        value: async (...args: Parameters<EventStore['append']>) => {
          if (!raced) {
            raced = true;
            await other.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'In Progress'), context(developer));
          }
          return store.append(...args);
        },
      },
    });
    const handler = new CommandHandler(racing, {
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    const handled = await handler.handle(
      streams.bug(bugId),
      bugDecider,
      setStatus(bugId, 'Closed'),
      context(developer),
      { retryOnConflict: true },
    );
    expect(delays).toEqual([0.5 * 2 * 2]);
    expect(handled.newEvents).toEqual([
      { type: 'BugStatusChanged', data: { bugId, from: 'In Progress', to: 'Closed' } },
    ]);
    expect(await typesOf(streams.bug(bugId))).toEqual([
      'BugReported',
      'DevelopersAssigned',
      'BugStatusChanged',
      'BugStatusChanged',
    ]);
  });

  it('gives up after a bounded number of attempts with a 409, appending nothing of its own', async () => {
    const bugId = await reportedBug();
    const other = new CommandHandler(store);
    let turn = 0;
    const alwaysRaced: EventStore = Object.create(store, {
      append: {
        value: async (...args: Parameters<EventStore['append']>) => {
          turn++;
          await other.handle(
            streams.bug(bugId),
            bugDecider,
            setStatus(bugId, turn % 2 ? 'In Progress' : 'Open'),
            context(developer),
          );
          return store.append(...args);
        },
      },
    });
    const handler = new CommandHandler(alwaysRaced, { maxAttempts: 3, sleep: async () => {} });
    await expect(
      handler.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Closed'), context(developer), {
        retryOnConflict: true,
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(turn).toBe(3);
    const statuses = (await store.readStream(streams.bug(bugId)))
      .filter((e) => e.type === 'BugStatusChanged')
      .map((e) => (e.data as { to: string }).to);
    expect(statuses).not.toContain('Closed');
  });

  it('appends nothing when the decision refuses', async () => {
    const bugId = await reportedBug();
    const handler = new CommandHandler(store);
    const outsider: Actor = { id: 'dev-2', role: 'developer' };
    await expect(
      handler.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Closed', outsider), context(outsider)),
    ).rejects.toThrow();
    expect(await typesOf(streams.bug(bugId))).toEqual(['BugReported', 'DevelopersAssigned']);
  });

  it('answers a retried request (same Idempotency-Key) as the first time, appending nothing, even long after', async () => {
    const bugId = await reportedBug();
    const handler = new CommandHandler(store);
    const keyed = context(developer, { idempotencyKey: 'retry-me' });
    const first = await handler.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Closed'), keyed);
    const again = await handler.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Closed'), keyed);
    expect(again).toMatchObject({ replayed: true, position: first.position, revision: first.revision });
    // Past the ids the cache remembers: 70 more events, then the same request from a fresh process.
    for (let i = 0; i < 35; i++) {
      await handler.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Open'), context(developer));
      await handler.handle(streams.bug(bugId), bugDecider, setStatus(bugId, 'Closed'), context(developer));
    }
    const late = await new CommandHandler(store).handle(
      streams.bug(bugId),
      bugDecider,
      setStatus(bugId, 'Closed'),
      keyed,
    );
    expect(late).toMatchObject({ replayed: true, position: first.position, revision: first.revision });
    expect(await typesOf(streams.bug(bugId))).toHaveLength(2 + 1 + 70);
  });

  describe('on a chat timeline (appended without a revision check)', () => {
    async function chatWithMessage(handler: CommandHandler) {
      const chatId = randomUUID();
      const create: ChatCommand = {
        type: 'CreateChat',
        data: { chatId, name: 'Crew', type: 'team', participants: [tester.id], registeredUserIds: [tester.id] },
        metadata: { actor: admin, now },
      };
      const chat = await handler.handle(streams.chat(chatId), chatDecider, create, context(admin), {
        mustBeNew: true,
      });
      const send: TimelineCommand = {
        type: 'SendMessage',
        data: { messageId: 'm1', content: 'hello', attachments: [], mentions: [], replyTo: null },
        metadata: { actor: tester, now },
      };
      await handler.handle(streams.chatMessages(chatId), timelineDecider(chat.state), send, context(tester), {
        anyRevision: true,
      });
      return { chatId, chat: chat.state };
    }

    it('appends exactly one MessageDeleted for two concurrent deletes of one message', async () => {
      const { chatId, chat } = await chatWithMessage(new CommandHandler(store));
      const remove = (actor: Actor): TimelineCommand => ({
        type: 'DeleteMessage',
        data: { messageId: 'm1' },
        metadata: { actor, now },
      });
      // Two processes, each sure the message is still there.
      const [a, b] = [new CommandHandler(store), new CommandHandler(store)];
      await Promise.all([
        a.load(streams.chatMessages(chatId), timelineDecider(chat)),
        b.load(streams.chatMessages(chatId), timelineDecider(chat)),
      ]);
      const results = await Promise.all(
        [
          [a, tester],
          [b, admin],
        ].map(([handler, actor]) =>
          (handler as CommandHandler).handle(
            streams.chatMessages(chatId),
            timelineDecider(chat),
            remove(actor as Actor),
            context(actor as Actor),
            { anyRevision: true, naturalKey: 'm1' },
          ),
        ),
      );
      expect(await typesOf(streams.chatMessages(chatId))).toEqual(['MessageSent', 'MessageDeleted']);
      expect(results.map((r) => r.state.messages.get('m1')?.isDeleted)).toEqual([true, true]);
    });

    it("answers a reactor's event once, however often it reacts to it", async () => {
      const handler = new CommandHandler(store);
      const chatId = randomUUID();
      const create: ChatCommand = {
        type: 'CreateChat',
        data: {
          chatId,
          name: 'Ask',
          type: 'ai_assistant',
          participants: [tester.id],
          registeredUserIds: [tester.id],
        },
        metadata: { actor: tester, now },
      };
      const chat = await handler.handle(streams.chat(chatId), chatDecider, create, context(tester), {
        mustBeNew: true,
      });
      const sent = await handler.handle(
        streams.chatMessages(chatId),
        timelineDecider(chat.state),
        {
          type: 'SendMessage',
          data: { messageId: 'q1', content: 'what is open?', attachments: [], mentions: [], replyTo: null },
          metadata: { actor: tester, now },
        },
        context(tester),
        { anyRevision: true },
      );
      const [question] = await store.readStream(streams.chatMessages(chatId));
      expect(sent.position).toBe(question!.position);
      const answer = (reactor: CommandHandler) =>
        reactor.handle(
          streams.chatMessages(chatId),
          timelineDecider(chat.state),
          {
            type: 'PostAiReply',
            data: { messageId: 'a1', replyTo: 'q1', content: 'Nothing.' },
            metadata: { actor: null, now },
          },
          context(null, { causationEventId: question!.id }),
          { anyRevision: true },
        );
      await Promise.all([answer(new CommandHandler(store)), answer(new CommandHandler(store)), answer(handler)]);
      expect(await typesOf(streams.chatMessages(chatId))).toEqual(['MessageSent', 'AiMessagePosted']);
      const [, reply] = await store.readStream(streams.chatMessages(chatId));
      expect(reply!.metadata.causationId).toBe(question!.id);
    });

    it('refuses to delete a message that is not in the chat', async () => {
      const handler = new CommandHandler(store);
      const { chatId, chat } = await chatWithMessage(handler);
      await expect(
        handler.handle(
          streams.chatMessages(chatId),
          timelineDecider(chat),
          { type: 'DeleteMessage', data: { messageId: 'nope' }, metadata: { actor: admin, now } },
          context(admin),
          { anyRevision: true, naturalKey: 'nope' },
        ),
      ).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
