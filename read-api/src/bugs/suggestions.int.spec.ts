import { http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * POST /api/bugs/suggestions (api.md "Triage suggestions", ADR 019) over real HTTP on
 * real PostgreSQL with pg_trgm: bugs are reported, assigned and closed through write-api,
 * and the question goes through the same in-process split the launcher makes.
 */
describe('POST /api/bugs/suggestions', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let ada: TestUser;
  let tess: TestUser;
  let tom: TestUser;
  let dana: TestUser;
  let eli: TestUser;
  let fay: TestUser;
  let gus: TestUser;
  let audrey: TestUser;
  const byTitle = new Map<string, { _id: string; number: number }>();

  const report = async (
    who: TestUser,
    title: string,
    severity: string,
    priority: string,
    assignee: TestUser,
    description = 'Steps: open the app and try it; it happens every time.',
  ) => {
    const res = await api.post(
      '/api/bugs',
      { title, description, severity, priority, assignedTo: [assignee.id] },
      who.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    byTitle.set(title, res.body.bug);
    return res.body.bug as { _id: string; number: number };
  };
  const close = async (bug: { _id: string }, who: TestUser) => {
    const res = await api.put(`/api/bugs/${bug._id}/status`, { status: 'Closed' }, who.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const suggest = (body: unknown, who?: TestUser) => api.post('/api/bugs/suggestions', body, who?.token);
  const typing = { title: 'Login button unresponsive on Safari', description: '' };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    ada = await registerUser(t.url, 'admin', 'Ada Admin');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    tom = await registerUser(t.url, 'tester', 'Tom Tester');
    dana = await registerUser(t.url, 'developer', 'Dana Developer');
    eli = await registerUser(t.url, 'developer', 'Eli Developer');
    fay = await registerUser(t.url, 'developer', 'Fay Developer');
    gus = await registerUser(t.url, 'developer', 'Gus Developer');
    audrey = await registerAuditor(t.url, ada.token, 'Audrey Auditor');

    // Tess's Safari login bugs: two closed by Dana, one by an admin for Eli.
    await close(await report(tess, 'Login button unresponsive on Safari 17', 'Major', 'High', dana), dana);
    await close(await report(tess, 'Login button does not respond on Safari', 'Major', 'High', dana), dana);
    await close(await report(tess, 'Safari: login button unresponsive after update', 'Major', 'Medium', eli), ada);
    // Tom's: the closest title of all, closed by Fay, who is then deactivated.
    await close(await report(tom, 'Login button unresponsive on Safari', 'Major', 'High', fay), fay);
    // Gus has the same kind of bug open (no credit for open ones), and unrelated bugs.
    await report(tom, 'Login button unresponsive on Safari mobile', 'Major', 'High', gus);
    await report(tess, 'Dark mode colours wrong on the settings page', 'Minor', 'Low', gus);
    await report(tess, 'Export to spreadsheet drops the last row', 'Critical', 'High', dana);
    expect((await api.post(`/api/users/${fay.id}/deactivate`, {}, ada.token)).status).toBe(200);
  });
  afterAll(() => t?.close());

  describe('for a tester', () => {
    it('finds their own likely duplicates, best first, with number, status and a score', async () => {
      const res = await suggest(typing, tess);
      expect(res.status).toBe(200);
      const titles = res.body.duplicates.map((d: { title: string }) => d.title);
      // Every word shared outranks a closer spelling with a word missing.
      expect(titles.slice(0, 3)).toEqual([
        'Login button unresponsive on Safari 17',
        'Safari: login button unresponsive after update',
        'Login button does not respond on Safari',
      ]);
      const first = res.body.duplicates[0];
      expect(first).toEqual({
        _id: byTitle.get('Login button unresponsive on Safari 17')!._id,
        number: byTitle.get('Login button unresponsive on Safari 17')!.number,
        title: 'Login button unresponsive on Safari 17',
        status: 'Closed',
        score: expect.any(Number),
      });
      const scores = res.body.duplicates.map((d: { score: number }) => d.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores[0]).toBeGreaterThan(0.8);
      expect(scores.every((s: number) => s >= 0 && s <= 1)).toBe(true);
      expect(titles).not.toContain('Dark mode colours wrong on the settings page');
    });

    it("never shows another tester's bug as a duplicate, however alike", async () => {
      const res = await suggest(typing, tess);
      const ids = res.body.duplicates.map((d: { _id: string }) => d._id);
      expect(ids).not.toContain(byTitle.get('Login button unresponsive on Safari')!._id);
      expect(ids).not.toContain(byTitle.get('Login button unresponsive on Safari mobile')!._id);
      // Every duplicate is one the tester may open.
      for (const id of ids) expect((await api.get(`/api/bugs/${id}`, tess.token)).status).toBe(200);
      // Tom sees his, not Tess's.
      const toms = await suggest(typing, tom);
      expect(toms.body.duplicates.map((d: { title: string }) => d.title)).toEqual([
        'Login button unresponsive on Safari',
        'Login button unresponsive on Safari mobile',
      ]);
    });

    it('suggests the severity and priority most similar bugs share, with the reason', async () => {
      const res = await suggest(typing, tess);
      expect(res.body.severity).toEqual({ value: 'Major', reason: 'All 5 most similar bugs were Major' });
      expect(res.body.priority).toEqual({ value: 'High', reason: '4 of the 5 most similar bugs had High priority' });
    });

    it('suggests active developers who closed similar bugs, never deactivated people or admins', async () => {
      const res = await suggest(typing, tess);
      expect(res.body.assignees).toEqual([
        { _id: dana.id, name: 'Dana Developer', reason: 'Closed 2 similar bugs; 1 open now' },
        // The admin closed it: the credit is the assigned developer's.
        { _id: eli.id, name: 'Eli Developer', reason: 'Closed 1 similar bug; 0 open now' },
      ]);
      const ids = res.body.assignees.map((a: { _id: string }) => a._id);
      expect(ids).not.toContain(fay.id);
      expect(ids).not.toContain(ada.id);
      expect(ids).not.toContain(gus.id);
    });
  });

  it('gives an admin duplicates from every bug', async () => {
    const res = await suggest(typing, ada);
    expect(res.status).toBe(200);
    expect(res.body.duplicates[0]).toMatchObject({ title: 'Login button unresponsive on Safari', status: 'Closed' });
    expect(res.body.duplicates[0].score).toBeGreaterThanOrEqual(0.95);
    expect(res.body.duplicates.map((d: { title: string }) => d.title)).toEqual(
      expect.arrayContaining(['Login button unresponsive on Safari mobile', 'Login button unresponsive on Safari 17']),
    );
    expect(res.body.duplicates.length).toBeLessThanOrEqual(5);
  });

  it('matches by the words of the description too', async () => {
    const res = await suggest(
      { title: 'Spreadsheet export broken', description: 'The last row is dropped from the export' },
      tess,
    );
    expect(res.body.duplicates[0]).toMatchObject({ title: 'Export to spreadsheet drops the last row' });
  });

  it('answers nothing, not an error, when nothing is typed or nothing is alike', async () => {
    const empty = { duplicates: [], severity: null, priority: null, assignees: [] };
    expect((await suggest({}, tess)).body).toEqual(empty);
    expect((await suggest({ title: '', description: '' }, tess)).body).toEqual(empty);
    expect((await suggest({ title: 'Lo' }, tess)).body).toEqual(empty);
    expect((await suggest({ title: null, description: null }, tess)).body).toEqual(empty);
    const unlike = await suggest({ title: 'Quarterly invoice PDF watermark', description: '' }, tess);
    expect(unlike.status).toBe(200);
    expect(unlike.body).toEqual(empty);
    // Only stop words: nothing to search for, still an answer.
    expect((await suggest({ title: 'the and of', description: 'a an the' }, tess)).status).toBe(200);
    // Characters a tsquery would choke on are only separators.
    const odd = await suggest({ title: "Login | button & !(Safari) 'x' :* <->", description: '\\ " ;' }, tess);
    expect(odd.status).toBe(200);
    expect(odd.body.duplicates.length).toBeGreaterThan(0);
  });

  it('refuses bad bodies with 400 and a field message', async () => {
    const bad = await suggest({ title: 42 }, tess);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'title', message: 'title must be text' }]);
    expect((await suggest({ title: 'x'.repeat(1001) }, tess)).status).toBe(400);
    expect((await suggest({ title: 'Login', description: 'y'.repeat(100_001) }, tess)).status).toBe(400);
    expect((await suggest({ description: ['a'] }, tess)).status).toBe(400);
    expect((await suggest([], tess)).status).toBe(400);
    const malformed = await api.call('POST', '/api/bugs/suggestions', {
      raw: '{"title":',
      token: tess.token,
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const notJson = await api.call('POST', '/api/bugs/suggestions', {
      raw: 'title=Login',
      token: tess.token,
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
  });

  it('is for those who report bugs: developers and auditors 403, no token 401', async () => {
    expect((await suggest(typing, dana)).status).toBe(403);
    expect((await suggest(typing, audrey)).status).toBe(403);
    expect((await suggest(typing)).status).toBe(401);
    expect((await api.post('/api/bugs/suggestions', typing, 'not-a-token')).status).toBe(401);
  });

  it('is answered by read-api and changes nothing', async () => {
    const before = await t.system.store.headPosition();
    const res = await suggest(typing, ada);
    expect(res.status).toBe(200);
    expect(await t.system.store.headPosition()).toBe(before);
    // The split sends it to read-api: write-api alone does not know the path.
    const direct = await t.system.writeApi!.request('/api/bugs/suggestions', {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(typing),
    });
    expect(direct.status).not.toBe(200);
  });
});
