import { createHmac } from 'node:crypto';
import { eventually, sendThenWait, type WaitedAnswer } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOADS_IN_MEMORY } from './code-links.routes.js';

/**
 * api.md "Second round of safety": `POST /api/integrations/github|gitlab` refuse an unsigned
 * request before its body is read, and keep at most 4 payloads in memory at once (429 with
 * Retry-After beyond). Before, each anonymous connection could make the process hold up to
 * 25 MB before the secret was looked at (50 connections: RSS 170 → 945 MB).
 */
const GITHUB_SECRET = 'github-secret-for-bodies';
const GITLAB_SECRET = 'gitlab-token-for-bodies';
const DECLARED = 20 * 1024 * 1024;
/** Only a bound on a failure: a refusal that needs no body comes at once. */
const NO_ANSWER_AFTER_MS = 20_000;

async function answered(sending: Promise<WaitedAnswer>): Promise<WaitedAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const noAnswer = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), NO_ANSWER_AFTER_MS);
  });
  const answer = await Promise.race([sending, noAnswer]);
  clearTimeout(timer);
  expect(answer, 'no answer before the body was sent').not.toBeNull();
  return answer!;
}

describe('code host webhooks read no body they cannot trust', () => {
  let t: TestSystem;

  beforeAll(async () => {
    t = await startTestSystem({ config: { codeHosts: { githubSecret: GITHUB_SECRET, gitlabSecret: GITLAB_SECRET } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Declares a 20 MB payload, sends 1 kB of it and waits. */
  const partial = (path: string, headers: Record<string, string>, signal?: AbortSignal) =>
    sendThenWait(t.url, {
      path,
      headers: { 'content-type': 'application/json', 'content-length': String(DECLARED), ...headers },
      prefix: '{"ref":"',
      bytes: 1024,
      ...(signal ? { signal } : {}),
    });

  it('refuses GitHub deliveries without a signature before reading their body', async () => {
    for (const headers of [{}, { 'x-hub-signature-256': 'sha1=abc' }] as Record<string, string>[]) {
      const answer = await answered(partial('/api/integrations/github', { 'x-github-event': 'push', ...headers }));
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text).message).toBe('Webhook signature missing or wrong');
      await answer.closed;
    }
  });

  it('refuses GitLab deliveries without the token, or with a wrong one, before reading their body', async () => {
    for (const headers of [{}, { 'x-gitlab-token': 'not the token' }] as Record<string, string>[]) {
      const answer = await answered(partial('/api/integrations/gitlab', { 'x-gitlab-event': 'Push Hook', ...headers }));
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text).message).toBe('Webhook token missing or wrong');
      await answer.closed;
    }
  });

  it('holds at most 4 payloads at once: the next one waits its turn with 429 and Retry-After', async () => {
    // Four signed-looking GitHub deliveries that send a little and then stall, each holding a slot.
    const fakeSignature = `sha256=${'0'.repeat(64)}`;
    const stall = new AbortController();
    const stalled = Array.from({ length: PAYLOADS_IN_MEMORY }, () =>
      partial(
        '/api/integrations/github',
        { 'x-github-event': 'push', 'x-hub-signature-256': fakeSignature },
        stall.signal,
      ),
    );
    // Once all four are being read, a fifth (GitLab's, with its right token) is turned away at once.
    const refused = await eventually(async () => {
      const answer = await answered(
        partial('/api/integrations/gitlab', { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': GITLAB_SECRET }),
      );
      if (answer.status === 429) return answer;
      await answer.closed;
      return null;
    });
    expect(JSON.parse(refused.text).message).toMatch(/try again/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await refused.closed;
    // None of the four was answered meanwhile: they are still waiting for their bodies.
    const early = await Promise.race([Promise.race(stalled).then(() => 'answered'), Promise.resolve('waiting')]);
    expect(early).toBe('waiting');
    // The four clients give up: their slots are freed as their connections end.
    stall.abort();
    for (const answer of await Promise.all(stalled)) expect(answer.status).toBeNull();
  });

  it('takes deliveries again once the slots are free', async () => {
    // The stalled connections of the test before are gone; a whole delivery is read again.
    const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const signature = `sha256=${createHmac('sha256', GITHUB_SECRET).update(body).digest('hex')}`;
    const status = await eventually(async () => {
      const response = await fetch(`${t.url}/api/integrations/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-hub-signature-256': signature },
        body,
      });
      return response.status === 429 ? null : response.status;
    });
    expect(status).toBe(204);
  });
});
