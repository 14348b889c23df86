import { relationMessages } from '@bugtrail/domain';
import { http, prng, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 36, the property: random adds and removals of `blocks` (said from either side) over a few
 * bugs, against a naive graph. The server refuses exactly the relations that would close a loop
 * (400 "That would make a cycle"), takes the others, and each bug shows exactly the model's
 * relations. The real HTTP servers on a real PostgreSQL.
 */
describe('loops of blocks, against a naive graph', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  const bugs: string[] = [];

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    const dev = await registerUser(t.url, 'developer', 'Dan Developer');
    for (let i = 0; i < 6; i++) {
      const made = await api.post(
        '/api/bugs',
        { title: `Loop case ${i} of six`, description: 'Which one waits for which?', assignedTo: [dev.id] },
        admin.token,
      );
      bugs.push(made.body.bug._id);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses exactly the loops the naive graph finds', async () => {
    const seed = Number(process.env.RELATION_SEED ?? Date.now() % 1_000_000);
    const r = prng(seed);
    const edges = new Set<string>(); // `${blocker}>${blocked}`
    const reaches = (from: string, to: string): boolean => {
      const seen = new Set<string>([from]);
      const queue = [from];
      while (queue.length > 0) {
        const at = queue.shift()!;
        if (at === to) return true;
        for (const edge of edges) {
          const [a, b] = edge.split('>') as [string, string];
          if (a === at && !seen.has(b)) {
            seen.add(b);
            queue.push(b);
          }
        }
      }
      return false;
    };
    let refusedLoops = 0;
    for (let step = 0; step < 60; step++) {
      const existing = [...edges];
      if (existing.length > 0 && r.next() < 0.25) {
        const [blocker, blocked] = r.pick(existing).split('>') as [string, string];
        const fromBlocker = r.next() < 0.5;
        const gone = await api.call(
          'DELETE',
          fromBlocker
            ? `/api/bugs/${blocker}/relations/${blocked}?type=blocks`
            : `/api/bugs/${blocked}/relations/${blocker}?type=blocked_by`,
          { token: admin.token },
        );
        expect(gone.status, `seed ${seed} step ${step}`).toBe(200);
        edges.delete(`${blocker}>${blocked}`);
        continue;
      }
      const a = r.pick(bugs);
      const b = r.pick(bugs);
      const type = r.pick(['blocks', 'blocked_by'] as const);
      const [blocker, blocked] = type === 'blocks' ? [a, b] : [b, a];
      const loop = a === b || reaches(blocked, blocker);
      const expected = loop ? 400 : edges.has(`${blocker}>${blocked}`) ? 200 : 201;
      const answer = await api.post(`/api/bugs/${a}/relations`, { type, bugId: b }, admin.token);
      expect(answer.status, `seed ${seed} step ${step}: ${JSON.stringify(answer.body)}`).toBe(expected);
      if (loop) {
        expect(answer.body.message).toBe(relationMessages.cycle);
        refusedLoops += 1;
      } else edges.add(`${blocker}>${blocked}`);
    }
    for (const id of bugs) {
      const bug = (await api.get(`/api/bugs/${id}`, admin.token)).body as {
        relations: { type: string; bug: { _id: string } }[];
      };
      const shown = bug.relations.map((x) => `${x.type} ${x.bug._id}`).sort();
      const model = [...edges]
        .flatMap((edge) => {
          const [blocker, blocked] = edge.split('>') as [string, string];
          return [
            ...(blocker === id ? [`blocks ${blocked}`] : []),
            ...(blocked === id ? [`blocked_by ${blocker}`] : []),
          ];
        })
        .sort();
      expect(shown, `seed ${seed}: ${id}`).toEqual(model);
    }
    expect(refusedLoops, `seed ${seed}`).toBeGreaterThan(0);
  });
});
