import { randomUUID } from 'node:crypto';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { appendAndSettle, startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, reportBug, statusChanged } from '../../../cli/src/demo/bug-events.js';
import { bugCompareSchema } from './bugs.schemas.js';

/**
 * Time travel over real HTTP on real PostgreSQL: two moments of a bug compared
 * (`?from&to`), and `?at` checked against what a reader of `GET /api/bugs/{id}` saw
 * at each moment while the bug changed through write-api.
 */
describe('bug history: as of a moment, and two moments compared', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let otherTester: TestUser;
  let dev: TestUser;
  let otherDev: TestUser;
  const base = Date.now() - 24 * 3600_000;
  const at = (m: number) => new Date(base + m * 60_000).toISOString();
  const ids = { seeded: randomUUID(), deleted: randomUUID() };
  let stepId = '';

  const history = (id: string, query: Record<string, string>, token: string) =>
    api.get(`/api/bugs/${id}/history?${new URLSearchParams(query)}`, token);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    otherTester = await registerUser(t.url, 'tester', 'Tom Tester');
    dev = await registerUser(t.url, 'developer', 'Dana Dev');
    otherDev = await registerUser(t.url, 'developer', 'Lee Dev');

    const reported = reportBug(
      {
        bugId: ids.seeded,
        reporterId: tester.id,
        title: 'Checkout button does nothing',
        description: 'Clicking checkout does nothing on Safari',
        priority: 'Medium',
        severity: 'Major',
        module: 'checkout',
        assigneeIds: [dev.id],
        checklist: ['Repro on Safari'],
      },
      { at: at(0) },
    );
    stepId = (reported[2]!.data as { itemId: string }).itemId;
    await appendAndSettle(t, `bug-${ids.seeded}`, [
      ...reported,
      statusChanged(ids.seeded, 'Open', 'In Progress', { actorId: dev.id, at: at(10) }),
      event(
        'BugDetailsEdited',
        {
          bugId: ids.seeded,
          changes: {
            title: 'Checkout button does nothing on Safari',
            description: 'Clicking checkout does nothing on Safari 17',
            priority: 'High',
          },
        },
        { actorId: tester.id, at: at(20) },
      ),
      event(
        'ChecklistItemCompleted',
        { bugId: ids.seeded, itemId: stepId, by: dev.id, at: at(30) },
        { actorId: dev.id, at: at(30) },
      ),
      event(
        'DevelopersAssigned',
        { bugId: ids.seeded, developerIds: [otherDev.id] },
        { actorId: admin.id, at: at(40) },
      ),
    ]);
    await appendAndSettle(t, `bug-${ids.deleted}`, [
      ...reportBug(
        {
          bugId: ids.deleted,
          reporterId: tester.id,
          title: 'Duplicate of the checkout bug',
          description: 'Same as the checkout bug, reported twice',
          assigneeIds: [dev.id],
        },
        { at: at(0) },
      ),
      event('BugDeleted', { bugId: ids.deleted }, { actorId: tester.id, at: at(5) }),
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('?from&to', () => {
    it('answers both moments and the fields that differ, by the form labels, old then new', async () => {
      const answer = await history(ids.seeded, { from: at(5), to: at(25) }, admin.token);
      expect(answer.status).toBe(200);
      const body = bugCompareSchema.parse(answer.body);
      expect(body.from).toMatchObject({ _id: ids.seeded, status: 'Open', priority: 'Medium', version: 2 });
      expect(body.to).toMatchObject({ status: 'In Progress', priority: 'High', version: 4 });
      expect(body.changes).toEqual([
        { field: 'Title', from: 'Checkout button does nothing', to: 'Checkout button does nothing on Safari' },
        {
          field: 'Description',
          from: 'Clicking checkout does nothing on Safari',
          to: 'Clicking checkout does nothing on Safari 17',
        },
        { field: 'Priority', from: 'Medium', to: 'High' },
        { field: 'Status', from: 'Open', to: 'In Progress' },
      ]);
      // Each side is exactly the ?at answer for its moment.
      expect(body.from).toEqual((await history(ids.seeded, { at: at(5) }, admin.token)).body);
      expect(body.to).toEqual((await history(ids.seeded, { at: at(25) }, admin.token)).body);
    });

    it('names checklist ticks and assignees by their labels too', async () => {
      const body = (await history(ids.seeded, { from: at(25), to: at(45) }, admin.token)).body;
      expect(body.changes.map((c: { field: string }) => c.field)).toEqual(['Assign To', 'Checklist']);
      const [assign, checklist] = body.changes;
      expect(assign.from.map((u: { name: string }) => u.name)).toEqual(['Dana Dev']);
      expect(assign.to.map((u: { name: string }) => u.name)).toEqual(['Dana Dev', 'Lee Dev']);
      expect(checklist.from).toEqual([
        { _id: stepId, text: 'Repro on Safari', completed: false, completedBy: null, completedAt: null },
      ]);
      expect(checklist.to).toEqual([
        {
          _id: stepId,
          text: 'Repro on Safari',
          completed: true,
          completedBy: { _id: dev.id, name: 'Dana Dev' },
          completedAt: at(30),
        },
      ]);
    });

    it('goes backwards as well, and two equal moments differ in nothing', async () => {
      const back = (await history(ids.seeded, { from: at(25), to: at(5) }, admin.token)).body;
      expect(back.changes.find((c: { field: string }) => c.field === 'Status')).toEqual({
        field: 'Status',
        from: 'In Progress',
        to: 'Open',
      });
      const same = (await history(ids.seeded, { from: at(12), to: at(18) }, admin.token)).body;
      expect(same.changes).toEqual([]);
      expect(same.from).toEqual(same.to);
    });

    it('a moment before the bug is null, every field then differs; before it on both sides is 404', async () => {
      const body = (await history(ids.seeded, { from: at(-5), to: at(5) }, admin.token)).body;
      expect(body.from).toBeNull();
      expect(body.to).toMatchObject({ status: 'Open' });
      expect(body.changes[0]).toEqual({ field: 'Title', from: null, to: 'Checkout button does nothing' });
      expect(body.changes.map((c: { field: string }) => c.field)).toContain('Status');
      expect((await history(ids.seeded, { from: at(-5), to: at(-1) }, admin.token)).status).toBe(404);
    });

    it('rejects malformed or half-given moments with 400, like ?at', async () => {
      const queries: Record<string, string>[] = [
        { from: 'yesterday', to: at(5) },
        { from: at(5), to: '2024-02-31T10:00:00Z' },
        { from: at(5) },
        { to: at(5) },
        { from: at(5), to: at(25), at: at(10) },
      ];
      for (const query of queries) {
        const answer = await history(ids.seeded, query, admin.token);
        expect(answer.status, JSON.stringify(query)).toBe(400);
        expect(answer.body.message).toEqual(expect.any(String));
      }
    });

    it('is allowed to whoever may read the history, no one else', async () => {
      const moments = { from: at(5), to: at(25) };
      expect((await history(ids.seeded, moments, tester.token)).status).toBe(200);
      expect((await history(ids.seeded, moments, dev.token)).status).toBe(200);
      expect((await history(ids.seeded, moments, otherTester.token)).status).toBe(403);
      expect((await history(ids.seeded, moments, otherDev.token)).status).toBe(200); // assigned at minute 40
      expect((await history(randomUUID(), moments, admin.token)).status).toBe(404);
      expect((await api.get(`/api/bugs/${ids.seeded}/history?from=${at(5)}&to=${at(25)}`)).status).toBe(401);
    });

    it('deleted bugs: admins compare before and after the deletion, others get 404', async () => {
      const answer = await history(ids.deleted, { from: at(1), to: at(6) }, admin.token);
      expect(answer.status).toBe(200);
      expect(answer.body.changes).toEqual([{ field: 'Deleted', from: false, to: true }]);
      expect(answer.body.to).toMatchObject({ _id: ids.deleted, deleted: true });
      expect((await history(ids.deleted, { from: at(1), to: at(6) }, tester.token)).status).toBe(404);
    });
  });

  describe('?at', () => {
    it('equals what a reader of GET /api/bugs/{id} saw at each moment', async () => {
      const seen: { moment: string; bug: unknown }[] = [];
      const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
      const read = async (id: string) => {
        const answer = await api.get(`/api/bugs/${id}`, admin.token);
        expect(answer.status).toBe(200);
        await pause();
        seen.push({ moment: new Date().toISOString(), bug: answer.body });
        await pause();
      };
      const ok = (answer: { status: number; body: unknown }) => {
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
        return answer.body as { bug: { _id: string; checklist: { _id: string; text: string }[] } };
      };

      const created = ok(
        await api.post(
          '/api/bugs',
          {
            title: 'Search returns nothing',
            description: 'Searching for any word returns an empty list',
            priority: 'Medium',
            severity: 'Minor',
            module: 'search',
            dueDate: null,
            assignedTo: [dev.id],
            checklist: [{ text: 'Search for "login"' }, { text: 'See an empty list' }],
            attachments: [],
          },
          tester.token,
        ),
      ).bug;
      const id = created._id;
      await read(id);
      ok(await api.put(`/api/bugs/${id}/status`, { status: 'In Progress' }, dev.token));
      await read(id);
      ok(
        await api.put(
          `/api/bugs/${id}/checklist`,
          { checklist: created.checklist.map((i, n) => ({ _id: i._id, text: i.text, completed: n === 0 })) },
          dev.token,
        ),
      );
      await read(id);
      ok(
        await api.put(
          `/api/bugs/${id}`,
          {
            title: 'Search returns nothing for any word',
            description: 'Searching for any word returns an empty list, even "bug"',
            priority: 'High',
            attachments: ['https://example.com/empty.png'],
          },
          tester.token,
        ),
      );
      await read(id);
      ok(await api.put(`/api/bugs/${id}`, { assignedTo: [dev.id, otherDev.id] }, admin.token));
      await read(id);
      ok(await api.put(`/api/bugs/${id}/status`, { status: 'Closed' }, otherDev.token));
      await read(id);

      expect(new Set(seen.map((s) => (s.bug as { version: number }).version)).size).toBe(seen.length);
      for (const { moment, bug } of seen) {
        const then = await history(id, { at: moment }, admin.token);
        expect(then.status).toBe(200);
        expect(then.body, moment).toEqual(bug);
      }
      // And the comparison of the first and last moments is the difference of what was seen.
      const first = seen[0]!;
      const last = seen.at(-1)!;
      const compared = (await history(id, { from: first.moment, to: last.moment }, tester.token)).body;
      expect(compared.from).toEqual(first.bug);
      expect(compared.to).toEqual(last.bug);
      expect(compared.changes.map((c: { field: string }) => c.field)).toEqual([
        'Title',
        'Description',
        'Priority',
        'Status',
        'Assign To',
        'Checklist',
        'Attachments',
      ]);
    });
  });
});
