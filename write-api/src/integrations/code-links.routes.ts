import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type BugCommand,
  bugDecider,
  bugKeyReferences,
  bugReferences,
  type CodeHost,
  type CommitLink,
  ConflictError,
  NotFoundError,
  type PullRequestLink,
  parseBugKey,
  RateLimitedError,
  streams,
} from '@bugtrail/domain';
import { HttpError, readBodyBytes } from '@bugtrail/platform';
import { verify } from '@octokit/webhooks-methods';
import { type Context, Hono } from 'hono';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { type CodeNews, codeHostNames, githubNews, gitlabNews } from './code-host-payloads.js';

/** GitHub sends at most 25 MB; nothing bigger is read. */
const PAYLOAD_LIMIT = 25 * 1024 * 1024;
/**
 * Payloads held in memory at once, across both code hosts (api.md "Second round of safety"):
 * GitHub's signature can only be checked on the whole body, so a stranger with a made-up
 * signature could otherwise make the process hold 25 MB per connection.
 */
export const PAYLOADS_IN_MEMORY = 4;
const BUSY_RETRY_AFTER_SECONDS = 5;
export const codeLinkMessages = {
  tooLarge: 'Webhook payload too large (limit 25 MB)',
  badSignature: 'Webhook signature missing or wrong',
  badToken: 'Webhook token missing or wrong',
  malformed: 'Malformed webhook payload',
  busy: 'Too many webhook deliveries are being read right now: try again shortly',
} as const;
const messages = codeLinkMessages;

/** One command for one bug: what a commit or a request says about it. */
type Link = {
  /** How the text names the bug: `#42` (its number) or `WEB-7` (a key it has had, issue 35). */
  ref: string;
  commits: CommitLink[];
  pullRequests: PullRequestLink[];
  close: boolean;
  authorEmail: string | null;
  /** What this link is, so the same delivery twice appends nothing. */
  key: string;
};

/**
 * Code links (api.md "Integrations"): GitHub's and GitLab's webhooks, verified by their
 * secret, link the commits and requests that name `#42` to bug 42 and close it on
 * "fixes #42" once the change reaches the default branch or the request is merged.
 * Each link goes through the one write path as a `LinkCode` command; its event ids
 * derive from what it links, so a redelivery appends nothing.
 *
 * Not declared commands (command.ts): a delivery is anonymous and proven by its secret before
 * the body is read, its body is raw bytes read in one of a few slots (a signature covers the
 * bytes, GitHub may send a form), and it is one command per bug it names, on as many streams,
 * each with its own actor and natural key and none with the Idempotency-Key.
 */
export function createCodeLinkRoutes(deps: WriteApiDeps) {
  const app = new Hono();
  // One count per process: what the process holds, whichever host sent it.
  let reading = 0;

  /** Reads the payload in one of the few slots (429 when all are taken), then frees the slot. */
  async function withPayload<T>(c: Context, use: (raw: Uint8Array) => Promise<T>): Promise<T> {
    if (reading >= PAYLOADS_IN_MEMORY) {
      c.header('Connection', 'close');
      throw new RateLimitedError(messages.busy, BUSY_RETRY_AFTER_SECONDS);
    }
    reading++;
    try {
      return await use(await readBodyBytes(c, PAYLOAD_LIMIT, messages.tooLarge));
    } finally {
      reading--;
    }
  }

  app.post('/github', async (c) => {
    const secret = deps.config.codeHosts.githubSecret;
    if (!secret) return c.json({ message: 'Not found' }, 404);
    // Unsigned, or not a signature at all: refused before a byte of the body is read.
    const signature = c.req.header('x-hub-signature-256') ?? '';
    if (!GITHUB_SIGNATURE.test(signature)) throw new HttpError(401, messages.badSignature);
    return withPayload(c, async (raw) => {
      const body = new TextDecoder().decode(raw);
      if (!(await verifiedGithub(secret, body, signature))) throw new HttpError(401, messages.badSignature);
      const event = c.req.header('x-github-event') ?? '';
      const news = githubNews(event, githubPayload(c, body), new Date().toISOString());
      return answer(c, deps, 'github', news);
    });
  });

  app.post('/gitlab', async (c) => {
    const secret = deps.config.codeHosts.gitlabSecret;
    if (!secret) return c.json({ message: 'Not found' }, 404);
    // GitLab's secret is a header: checked before a byte of the body is read.
    if (!sameSecret(secret, c.req.header('x-gitlab-token') ?? '')) throw new HttpError(401, messages.badToken);
    return withPayload(c, async (raw) => {
      const event = c.req.header('x-gitlab-event') ?? '';
      const news = gitlabNews(event, parseJson(new TextDecoder().decode(raw)), new Date().toISOString());
      return answer(c, deps, 'gitlab', news);
    });
  });

  return app;
}

const GITHUB_SIGNATURE = /^sha256=[0-9a-f]{64}$/i;

async function verifiedGithub(secret: string, body: string, signature: string): Promise<boolean> {
  if (!GITHUB_SIGNATURE.test(signature)) return false;
  try {
    return await verify(secret, body, signature);
  } catch {
    return false;
  }
}

/** Compared as digests, so neither the length nor any prefix of the secret leaks through timing. */
function sameSecret(secret: string, given: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(secret), digest(given));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, messages.malformed);
  }
}

/** GitHub sends JSON, or a form whose `payload` field holds it (the hook's "content type"). */
function githubPayload(c: Context, body: string): unknown {
  const type = c.req.header('content-type') ?? '';
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    const payload = new URLSearchParams(body).get('payload');
    if (payload === null) throw new HttpError(400, messages.malformed);
    return parseJson(payload);
  }
  return parseJson(body);
}

async function answer(c: Context, deps: WriteApiDeps, host: CodeHost, news: CodeNews | null) {
  // An event kind that links no code (ping, issues, a tag push): acknowledged, nothing done.
  if (!news) return c.body(null, 204);
  const links = linksOf(host, news);
  if (links.length === 0) return c.json({ linked: [], closed: [] }, 200);
  const bugs = await bugsNamed(deps, [...new Set(links.map((l) => l.ref))]);
  const actors = await deps.accounts.activeActorsByEmail(links.flatMap((l) => (l.authorEmail ? [l.authorEmail] : [])));
  const linked = new Set<number>();
  const closed = new Set<number>();
  let position: string | null = null;
  const now = new Date().toISOString();
  for (const link of links) {
    const named = bugs.get(link.ref);
    // A number or a key that names no bug (`UTF-8`) is ignored.
    if (!named) continue;
    const { bugId, number } = named;
    const actor = link.authorEmail ? (actors.get(link.authorEmail) ?? null) : null;
    const command: BugCommand = {
      type: 'LinkCode',
      data: { bugId, commits: link.commits, pullRequests: link.pullRequests, close: link.close },
      metadata: { actor, now },
    };
    try {
      const handled = await deps.commands.handle(
        streams.bug(bugId),
        bugDecider,
        command,
        { ...commandContext(c, actor), idempotencyKey: null },
        {
          naturalKey: link.key,
          retryOnConflict: true,
          // Who acted when no user did: the code host, by its name.
          ...(actor ? {} : { extraMetadata: () => ({ actorName: codeHostNames[host] }) }),
        },
      );
      if (handled.position) position = handled.position;
      linked.add(number);
      if (handled.state.kind === 'reported' && handled.state.status === 'Closed' && link.close) closed.add(number);
    } catch (error) {
      // A deleted bug is ignored like a missing one; a redelivery whose events are stored already is done.
      if (error instanceof NotFoundError || error instanceof ConflictError) continue;
      throw error;
    }
  }
  await settle(c, deps, position);
  return c.json({ linked: [...linked].sort((a, b) => a - b), closed: [...closed].sort((a, b) => a - b) }, 200);
}

/**
 * GitHub's merge commits begin "Merge pull request #314 from owner/branch": that number is
 * the pull request's, not a bug's (the request itself is linked by its own webhook).
 */
const withoutMergeLine = (message: string) => message.replace(/^Merge pull request #\d+ from \S+/gm, '');

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/** Each bug a delivery names, with what names it: one link per commit or request and bug. */
function linksOf(host: CodeHost, news: CodeNews): Link[] {
  if (news.kind === 'push') {
    return news.commits.flatMap((commit) => {
      const refs = referencesIn(withoutMergeLine(commit.message));
      return refs.mentioned.map((ref): Link => {
        const close = news.toDefaultBranch && refs.closed.includes(ref);
        return {
          ref,
          commits: [
            {
              sha: commit.sha,
              message: commit.message,
              url: commit.url,
              author: commit.authorName,
              repository: news.repository,
              at: commit.at,
            },
          ],
          pullRequests: [],
          close,
          authorEmail: commit.authorEmail,
          key: `${host}:commit:${hash(news.repository, commit.sha)}:${close ? 'close' : 'link'}${keyed(ref)}`,
        };
      });
    });
  }
  const refs = referencesIn(news.title, news.body);
  const request: PullRequestLink = {
    number: news.number,
    title: news.title,
    url: news.url,
    state: news.state,
    repository: news.repository,
  };
  return refs.mentioned.map((ref): Link => {
    const close = news.state === 'merged' && refs.closed.includes(ref);
    return {
      ref,
      commits: [],
      pullRequests: [request],
      close,
      authorEmail: news.authorEmail,
      key: `${host}:request:${hash(news.repository, String(news.number), news.title, news.url, news.state)}:${close ? 'close' : 'link'}${keyed(ref)}`,
    };
  });
}

/** The bugs a text names: by number (`#42`) and by key (`WEB-7`, issue 35), as refs. */
function referencesIn(...texts: readonly (string | null | undefined)[]) {
  const numbers = bugReferences(...texts);
  const keys = bugKeyReferences(...texts);
  return {
    mentioned: [...numbers.mentioned.map((n) => `#${n}`), ...keys.mentioned],
    closed: [...numbers.closed.map((n) => `#${n}`), ...keys.closed],
  };
}

/**
 * A bug named by key links with its own natural key (the same commit naming `#42` and `WEB-7`
 * makes one link per way it names the bug; both land on it once, as news already shown is none).
 */
const keyed = (ref: string) => (ref.startsWith('#') ? '' : `:${ref}`);

/** Each ref's bug (id and installation-wide number): numbers from the write side's numbers, keys from every key a project has had. */
async function bugsNamed(
  deps: WriteApiDeps,
  refs: readonly string[],
): Promise<Map<string, { bugId: string; number: number }>> {
  const numbers = refs.filter((r) => r.startsWith('#')).map((r) => Number(r.slice(1)));
  const keys = refs.flatMap((r) => {
    const parsed = r.startsWith('#') ? null : parseBugKey(r);
    return parsed ? [parsed] : [];
  });
  const { rows } = await deps.pool.query<{ ref: string; bug_id: string; number: number }>(
    `select '#' || n.number as ref, n.bug_id, n.number
       from write_api.bug_numbers n where n.number = any($1::int[])
     union all
     select k.key || '-' || p.number, p.bug_id, n.number
       from unnest($2::text[], $3::int[]) as x(key, number)
       join write_api.project_keys k on k.key = x.key
       join write_api.project_bug_numbers p on p.project_id = k.project_id and p.number = x.number
       join write_api.bug_numbers n on n.bug_id = p.bug_id`,
    [numbers.filter((n) => n <= 2_147_483_647), keys.map((k) => k.key), keys.map((k) => k.number)],
  );
  return new Map(rows.map((r) => [r.ref, { bugId: r.bug_id, number: r.number }]));
}
