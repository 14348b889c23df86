import { createHmac } from 'node:crypto';
import { eventually, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { startWebhookReceiver, type WebhookReceiver } from '@bugtrail/testing/webhooks';
import githubExamples from '@octokit/webhooks-examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const GITHUB_SECRET = "It's a Secret to Everybody";
const GITLAB_SECRET = 'gitlab-token-4f1e';

type Example = { name: string; examples: Record<string, any>[] };
/** GitHub's own example payloads (@octokit/webhooks-examples), copied so each test can name its bugs. */
function example(name: 'push' | 'pull_request', pick: (e: Record<string, any>) => boolean): Record<string, any> {
  const kind = (githubExamples as unknown as Example[]).find((e) => e.name === name)!;
  const found = kind.examples.find(pick);
  if (!found) throw new Error(`no ${name} example`);
  return structuredClone(found);
}
const branchPush = () => example('push', (e) => e.ref === 'refs/heads/master' && e.commits.length === 1);
const openedPullRequest = () => example('pull_request', (e) => e.action === 'opened');

let shaCounter = 0;
const newSha = () => (0x1000000 + ++shaCounter).toString(16).padStart(40, 'a');

/**
 * Code links (api.md "Integrations") over real HTTP on a real PostgreSQL: GitHub's
 * example payloads signed as GitHub signs them, GitLab's hooks with their token.
 */
describe('commits and pull requests that name bugs', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let receiver: WebhookReceiver;
  /** The product without either secret, started before the other does anything. */
  let bare: TestSystem;

  const eventCount = async () =>
    Number((await t.system.pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
  const report = async (title = 'Export drops the last row') => {
    const answer = await api.post(
      '/api/bugs',
      {
        title,
        description: 'The xlsx export loses its final row every time',
        assignedTo: [developer.id],
      },
      tester.token,
    );
    expect(answer.status).toBe(201);
    return answer.body.bug as { _id: string; number: number };
  };
  const bug = async (id: string) => (await api.get(`/api/bugs/${id}`, admin.token)).body;
  const github = (event: string, payload: unknown, secret = GITHUB_SECRET) => {
    const body = JSON.stringify(payload);
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    return api.call('POST', '/api/integrations/github', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-hub-signature-256': signature },
    });
  };
  const gitlab = (event: string, payload: unknown, token = GITLAB_SECRET) =>
    api.call('POST', '/api/integrations/gitlab', {
      raw: JSON.stringify(payload),
      headers: { 'content-type': 'application/json', 'x-gitlab-event': event, 'x-gitlab-token': token },
    });
  const pushOf = (message: string, options: { ref?: string; email?: string; sha?: string } = {}) => {
    const push = branchPush();
    const commit = push.commits[0];
    commit.id = options.sha ?? newSha();
    commit.message = message;
    commit.url = `https://github.com/Codertocat/Hello-World/commit/${commit.id}`;
    if (options.email) commit.author.email = options.email;
    push.head_commit = { ...commit };
    push.ref = options.ref ?? 'refs/heads/master';
    return push;
  };

  beforeAll(async () => {
    bare = await startTestSystem();
    t = await startTestSystem({
      config: {
        codeHosts: { githubSecret: GITHUB_SECRET, gitlabSecret: GITLAB_SECRET },
        webhooks: { allowHosts: ['127.0.0.1'], retryBaseMs: 20, disableAfter: 20 },
      },
    });
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    developer = await registerUser(t.url, 'developer', 'Dan Dev');
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await bare?.close();
  });

  it('answers 404 where the integration has no secret', async () => {
    const answer = await http(bare.url).call('POST', '/api/integrations/github', {
      raw: '{}',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    });
    expect(answer.status).toBe(404);
    expect((await http(bare.url).call('POST', '/api/integrations/gitlab', { raw: '{}' })).status).toBe(404);
  });

  it('refuses a missing or wrong signature and appends nothing', async () => {
    const target = await report();
    const before = await eventCount();
    const push = pushOf(`fixes #${target.number}`);
    const unsigned = await api.call('POST', '/api/integrations/github', {
      raw: JSON.stringify(push),
      headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    });
    expect(unsigned.status).toBe(401);
    expect((await github('push', push, 'not the secret')).status).toBe(401);
    // Signed, then changed on the way: the signature no longer matches.
    const body = JSON.stringify(push);
    const signature = `sha256=${createHmac('sha256', GITHUB_SECRET).update(body).digest('hex')}`;
    const tampered = await api.call('POST', '/api/integrations/github', {
      raw: body.replace('fixes', 'fixed'),
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': signature },
    });
    expect(tampered.status).toBe(401);
    expect((await gitlab('Push Hook', {}, 'wrong')).status).toBe(401);
    expect((await api.call('POST', '/api/integrations/gitlab', { raw: '{}' })).status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect((await bug(target._id)).status).toBe('Open');
  });

  it('acknowledges event kinds that link no code with 204', async () => {
    expect((await github('ping', { zen: 'Keep it logically awesome.', hook_id: 1 })).status).toBe(204);
    expect((await github('issues', { action: 'opened' })).status).toBe(204);
    // A tag push names no branch.
    expect(
      (
        await github(
          'push',
          example('push', (e) => e.ref.startsWith('refs/tags/')),
        )
      ).status,
    ).toBe(204);
    expect((await gitlab('Note Hook', { object_kind: 'note' })).status).toBe(204);
  });

  it('answers 400 for a signed body that is not JSON, never 500', async () => {
    const body = '{"ref": ';
    const signature = `sha256=${createHmac('sha256', GITHUB_SECRET).update(body).digest('hex')}`;
    const answer = await api.call('POST', '/api/integrations/github', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': signature },
    });
    expect(answer.status).toBe(400);
  });

  it('closes bug 42 on "fixes #42" reaching the default branch, with the commit on its page; the same push twice changes nothing', async () => {
    const target = await report();
    const other = await report('Dates shift by a day');
    const push = pushOf(`Keep the last row of the export\n\nFixes #${target.number}, see #${other.number}`, {
      email: developer.email.toUpperCase(),
    });
    const first = await github('push', push);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      linked: [target.number, other.number].sort((a, b) => a - b),
      closed: [target.number],
    });

    const fixed = await bug(target._id);
    expect(fixed.status).toBe('Closed');
    expect(fixed.code.commits).toEqual([
      {
        sha: push.commits[0].id,
        message: push.commits[0].message,
        url: push.commits[0].url,
        author: 'Codertocat',
        repository: 'Codertocat/Hello-World',
        at: new Date(push.commits[0].timestamp).toISOString(),
      },
    ]);
    expect(fixed.code.pullRequests).toEqual([]);
    // Only named, not fixed: linked and still open.
    const mentioned = await bug(other._id);
    expect(mentioned.status).toBe('Open');
    expect(mentioned.code.commits.map((c: { sha: string }) => c.sha)).toEqual([push.commits[0].id]);

    // The history shows the link and the close, by the commit's author (matched by email).
    const history = (await api.get(`/api/bugs/${target._id}/history`, admin.token)).body;
    const entries = history.events.slice(-2);
    expect(entries.map((e: { type: string }) => e.type)).toEqual(['CommitLinked', 'BugStatusChanged']);
    for (const entry of entries) expect(entry.actor).toEqual({ _id: developer.id, name: 'Dan Dev' });
    expect(entries[0].changes[0]).toMatchObject({ field: 'commits', from: [] });
    expect(history.integrity.ok).toBe(true);

    const before = await eventCount();
    const again = await github('push', push);
    expect(again.status).toBe(200);
    expect(await eventCount()).toBe(before);

    // Reopened by hand, then the same delivery once more: it stays open.
    expect((await api.put(`/api/bugs/${target._id}/status`, { status: 'Open' }, admin.token)).status).toBe(200);
    const count = await eventCount();
    expect((await github('push', push)).status).toBe(200);
    expect(await eventCount()).toBe(count);
    expect((await bug(target._id)).status).toBe('Open');
  });

  it('links a fix on a branch without closing, and closes when the same commit reaches the default branch', async () => {
    const target = await report();
    const sha = newSha();
    const onBranch = await github('push', pushOf(`fix #${target.number}`, { ref: 'refs/heads/feature/export', sha }));
    expect(onBranch.body).toEqual({ linked: [target.number], closed: [] });
    const linked = await bug(target._id);
    expect(linked.status).toBe('Open');
    expect(linked.code.commits).toHaveLength(1);

    const merged = await github('push', pushOf(`fix #${target.number}`, { sha }));
    expect(merged.body).toEqual({ linked: [target.number], closed: [target.number] });
    const closed = await bug(target._id);
    expect(closed.status).toBe('Closed');
    // Still one commit: the same commit is linked once.
    expect(closed.code.commits).toHaveLength(1);
    // Nobody has the author's email: GitHub acted.
    const history = (await api.get(`/api/bugs/${target._id}/history`, admin.token)).body;
    expect(history.events.at(-1)).toMatchObject({ type: 'BugStatusChanged', actor: { _id: null, name: 'GitHub' } });
  });

  it("does not read the pull request's number in GitHub's merge commit as a bug's", async () => {
    const target = await report();
    const other = await report('Another bug');
    const message = `Merge pull request #${other.number} from acme/keep-last-row\n\nKeep the last row, fixes #${target.number}`;
    const answer = await github('push', pushOf(message));
    expect(answer.body).toEqual({ linked: [target.number], closed: [target.number] });
    expect((await bug(other._id)).code.commits).toEqual([]);
  });

  it('names bugs by key as well (issue 35): "fixes WEB-7" closes it, an old key still names it, UTF-8 names nothing', async () => {
    const made = await api.post('/api/projects', { key: 'SHOP', name: 'Shop' }, admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const target = (
      await api.post(
        '/api/bugs',
        {
          title: 'Basket forgets coupons',
          description: 'A coupon applied to the basket is gone after a reload',
          assignedTo: [developer.id],
          projectId: 'SHOP',
        },
        tester.token,
      )
    ).body.bug as { _id: string; number: number; key: string };
    expect(target.key).toBe('SHOP-1');
    const renamed = await api.call('PATCH', `/api/projects/${made.body._id}`, {
      body: { key: 'STORE' },
      token: admin.token,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const onBranch = await github(
      'push',
      pushOf('Keep coupons in UTF-8, see SHOP-1', { ref: 'refs/heads/feature/coupons' }),
    );
    expect(onBranch.body).toEqual({ linked: [target.number], closed: [] });
    const fixed = await github('push', pushOf('Keep coupons across reloads\n\nFixes STORE-1'));
    expect(fixed.body).toEqual({ linked: [target.number], closed: [target.number] });
    const page = await bug(target._id);
    expect(page.status).toBe('Closed');
    expect(page.key).toBe('STORE-1');
    expect(page.code.commits).toHaveLength(2);
  });

  it('ignores numbers that name no bug, and deleted bugs', async () => {
    const gone = await report();
    expect((await api.delete(`/api/bugs/${gone._id}`, admin.token)).status).toBe(200);
    const before = await eventCount();
    const answer = await github('push', pushOf(`fixes #987654 and closes #${gone.number}`));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ linked: [], closed: [] });
    expect(await eventCount()).toBe(before);
  });

  it('links a pull request, follows its state, and closes the bug when a fixing request is merged', async () => {
    const target = await report();
    const opened = openedPullRequest();
    opened.pull_request.title = 'Keep the last row';
    opened.pull_request.body = `Closes #${target.number}`;
    const answer = await github('pull_request', opened);
    expect(answer.body).toEqual({ linked: [target.number], closed: [] });
    const url = opened.pull_request.html_url;
    expect((await bug(target._id)).code.pullRequests).toEqual([
      { number: 2, title: 'Keep the last row', url, state: 'open', repository: 'Codertocat/Hello-World' },
    ]);
    const before = await eventCount();
    expect((await github('pull_request', opened)).status).toBe(200);
    expect(await eventCount()).toBe(before);

    const merged = structuredClone(opened);
    merged.action = 'closed';
    merged.pull_request.state = 'closed';
    merged.pull_request.merged = true;
    merged.pull_request.merged_at = '2026-11-27T10:00:00Z';
    expect((await github('pull_request', merged)).body).toEqual({ linked: [target.number], closed: [target.number] });
    const after = await bug(target._id);
    expect(after.status).toBe('Closed');
    expect(after.code.pullRequests).toEqual([
      { number: 2, title: 'Keep the last row', url, state: 'merged', repository: 'Codertocat/Hello-World' },
    ]);
  });

  it('takes GitHub form-encoded deliveries as well', async () => {
    const target = await report();
    const body = new URLSearchParams({ payload: JSON.stringify(pushOf(`refs #${target.number}`)) }).toString();
    const signature = `sha256=${createHmac('sha256', GITHUB_SECRET).update(body).digest('hex')}`;
    const answer = await api.call('POST', '/api/integrations/github', {
      raw: body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-github-event': 'push',
        'x-hub-signature-256': signature,
      },
    });
    expect(answer.body).toEqual({ linked: [target.number], closed: [] });
  });

  it('GitLab: a push to the default branch closes, a merged request is linked; its token checked', async () => {
    const target = await report();
    const sha = newSha();
    const push = {
      object_kind: 'push',
      ref: 'refs/heads/main',
      project: {
        path_with_namespace: 'team/app',
        default_branch: 'main',
        web_url: 'https://gitlab.example.com/team/app',
      },
      commits: [
        {
          id: sha,
          message: `Resolves #${target.number}`,
          title: `Resolves #${target.number}`,
          timestamp: '2026-11-20T09:30:00+01:00',
          url: `https://gitlab.example.com/team/app/-/commit/${sha}`,
          author: { name: 'Dan Dev', email: developer.email },
        },
      ],
    };
    expect((await gitlab('Push Hook', push)).body).toEqual({ linked: [target.number], closed: [target.number] });
    const closed = await bug(target._id);
    expect(closed.status).toBe('Closed');
    expect(closed.code.commits[0]).toMatchObject({ sha, repository: 'team/app', at: '2026-11-20T08:30:00.000Z' });

    const mr = {
      object_kind: 'merge_request',
      user: { name: 'Someone', email: '[REDACTED]' },
      project: { path_with_namespace: 'team/app' },
      object_attributes: {
        iid: 7,
        title: `Export: keep the last row (#${target.number})`,
        description: '',
        url: 'https://gitlab.example.com/team/app/-/merge_requests/7',
        state: 'merged',
        action: 'merge',
      },
    };
    expect((await gitlab('Merge Request Hook', mr)).body).toEqual({ linked: [target.number], closed: [] });
    expect((await bug(target._id)).code.pullRequests).toEqual([
      {
        number: 7,
        title: mr.object_attributes.title,
        url: mr.object_attributes.url,
        state: 'merged',
        repository: 'team/app',
      },
    ]);
    const history = (await api.get(`/api/bugs/${target._id}/history`, admin.token)).body;
    expect(history.events.at(-1)).toMatchObject({ type: 'PullRequestLinked', actor: { _id: null, name: 'GitLab' } });
  });

  it('time travel shows the bug without its commit before the push, and outgoing webhooks announce the link', async () => {
    const subscribed = await api.post(
      '/api/webhooks',
      { url: `${receiver.url}/hook`, events: ['bug.updated', 'bug.status_changed'], description: 'code' },
      admin.token,
    );
    expect(subscribed.status).toBe(201);
    receiver.useSecret(subscribed.body.secret);
    const target = await report();
    const beforePush = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const push = pushOf(`close #${target.number}`);
    expect((await github('push', push)).status).toBe(200);

    const then = await api.get(`/api/bugs/${target._id}/history?at=${encodeURIComponent(beforePush)}`, admin.token);
    expect(then.status).toBe(200);
    expect(then.body.code.commits).toEqual([]);
    expect(then.body.status).toBe('Open');
    const now = await api.get(
      `/api/bugs/${target._id}/history?at=${encodeURIComponent(new Date().toISOString())}`,
      admin.token,
    );
    expect(now.body.code.commits.map((c: { sha: string }) => c.sha)).toEqual([push.commits[0].id]);
    expect(now.body.status).toBe('Closed');

    const messages = await eventually(async () => {
      const mine = receiver.received.flatMap((m) => (m.verified?.data?.bug?._id === target._id ? [m.verified] : []));
      return mine.length >= 2 ? mine : null;
    });
    expect(messages.map((m) => m.type)).toEqual(['bug.updated', 'bug.status_changed']);
    expect(messages[0]!.data.changes).toEqual([
      { field: 'commits', from: [], to: [expect.objectContaining({ sha: push.commits[0].id })] },
    ]);
    expect(messages[1]!.data.actor).toEqual({ _id: null, name: 'GitHub' });
  });
});
