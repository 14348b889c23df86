import http from 'node:http';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 11, "Bad characters" and attachment links, over real HTTP against both apps:
 * a NUL or an unpaired surrogate in the path, query or a JSON string, a malformed
 * percent-encoding, an impossible cursor or `at` answer 400, never 500.
 */
let sys: TestSystem;
let tester: { id: string; token: string };
let developer: { id: string; token: string };
let admin: { id: string; token: string };
let bugId: string;

const INVALID = { message: 'Invalid characters in request' };

/** Sends the request target byte for byte (fetch would re-encode it). */
function raw(method: string, target: string, options: { token?: string; body?: string } = {}) {
  const { hostname, port } = new URL(sys.url);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        method,
        path: target,
        agent: false,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (d) => {
          text += d;
        });
        response.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {}
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

async function register(role: 'admin' | 'tester' | 'developer') {
  const answer = await raw('POST', '/api/auth/register', {
    body: JSON.stringify({
      name: `Bad Input ${role}`,
      email: `bad.${role}.${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.com`,
      password: 'correct horse battery',
      role,
      ...(role === 'admin' ? { adminInviteToken: '246810' } : {}),
    }),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { id: answer.body._id as string, token: answer.body.token as string };
}

const bug = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    title: 'Login button does nothing',
    description: 'Clicking the login button has no effect at all',
    priority: 'High',
    severity: 'Major',
    module: 'Auth',
    dueDate: null,
    assignedTo: [developer.id],
    ...overrides,
  });

beforeAll(async () => {
  sys = await startTestSystem();
  tester = await register('tester');
  developer = await register('developer');
  admin = await register('admin');
  const created = await raw('POST', '/api/bugs', { token: tester.token, body: bug() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  bugId = created.body.bug._id;
});

afterAll(async () => {
  await sys?.close();
});

describe('bad characters in the path and query', () => {
  const targets = (id: string) => [
    ['GET', `/api/bugs/${id}%00`],
    ['GET', '/api/bugs?q=a%00b'],
    ['GET', '/api/bugs?status=%ED%A0%80'],
    ['GET', `/api/bugs/${id}%ED%B0%80/history`],
    ['GET', '/api/bugs/%uD800'],
    ['GET', '/api/bugs?q=%'],
    ['GET', '/api/bugs?q=%E0%A4'],
    ['GET', '/chats/%00'],
    ['PUT', `/api/bugs/${id}%00`],
    ['POST', '/api/auth/login?x=%00'],
    ['DELETE', '/chats/abc%ED%A0%80'],
  ];

  it('answers 400 "Invalid characters in request" on both apps', async () => {
    for (const [method, target] of targets(bugId)) {
      const answer = await raw(method!, target!, {
        token: admin.token,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
      });
      expect({ target, status: answer.status, body: answer.body }).toEqual({ target, status: 400, body: INVALID });
    }
  });

  it('still serves ordinary encoded text', async () => {
    const answer = await raw('GET', '/api/bugs?q=caf%C3%A9+%F0%9F%90%9B', { token: admin.token });
    expect(answer.status).toBe(200);
  });
});

describe('bad characters in JSON strings and keys', () => {
  it.each([
    ['a NUL in a string', { title: 'Login\\u0000button' }],
    ['a lone high surrogate', { description: 'broken \\ud800 text here for sure' }],
    ['a lone low surrogate in an array', { checklist: [{ text: 'x\\udc00' }] }],
  ])('answers 400 for %s', async (_, override) => {
    // The escapes go through JSON.stringify as text and come back from JSON.parse as characters.
    const body = bug(override).replace(/\\\\u/g, '\\u');
    const answer = await raw('POST', '/api/bugs', { token: tester.token, body });
    expect(answer).toEqual({ status: 400, body: INVALID });
  });

  it('answers 400 for a bad key and on login', async () => {
    expect(await raw('POST', '/api/auth/login', { body: '{"email\\u0000":"a@b.c","password":"x"}' })).toEqual({
      status: 400,
      body: INVALID,
    });
    expect(await raw('POST', '/api/auth/login', { body: '{"email":"a\\ud800@b.c","password":"x"}' })).toEqual({
      status: 400,
      body: INVALID,
    });
  });
});

describe('impossible cursors and times', () => {
  const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  it.each([
    ['not base64 at all', '!!!'],
    ['no separator', cursor('hello')],
    ['31 February', cursor('2030-02-31 10:00:00.000+00|abc')],
    ['hour 24', cursor('2030-01-01 24:00:00+00|abc')],
    ['year 0', cursor('0000-01-01 10:00:00+00|abc')],
    ['a NUL in the id', cursor('2030-01-01 10:00:00+00|a\u0000b')],
    ['a huge offset', cursor('2030-01-01 10:00:00+99|abc')],
  ])('answers 400 for a cursor with %s', async (_, token) => {
    const answer = await raw('GET', `/api/bugs?limit=2&cursor=${token}`, { token: admin.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  });

  it('takes a well-formed cursor that matches nothing', async () => {
    const answer = await raw('GET', `/api/bugs?limit=2&cursor=${cursor('2001-01-01 10:00:00.123+00|nobody')}`, {
      token: admin.token,
    });
    expect(answer.status).toBe(200);
  });

  it.each(['1', '2030-02-31', '2030-01-01T25:00:00Z', '0000-01-01', 'yesterday', '2030-01-01T10:00:00+99:00'])(
    'answers 400 for history at=%s',
    async (at) => {
      const answer = await raw('GET', `/api/bugs/${bugId}/history?at=${encodeURIComponent(at)}`, {
        token: admin.token,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    },
  );

  it('answers a real time', async () => {
    const at = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await raw('GET', `/api/bugs/${bugId}/history?at=${at}`, { token: admin.token })).status).toBe(200);
  });
});

describe('bug attachment links', () => {
  it.each(['java\\tscript:alert(1)', 'not a url', '/relative/shot.png', 'ftp://example.com/x', 'javascript:alert(1)'])(
    'refuses %s with details on the field',
    async (link) => {
      const body = bug({ attachments: [link] }).replace(/\\\\t/g, '\\t');
      const answer = await raw('POST', '/api/bugs', { token: tester.token, body });
      expect(answer.status).toBe(400);
      expect(answer.body.details).toContainEqual({
        field: 'attachments.0',
        message: 'Attachment must be an http or https URL',
      });
    },
  );

  it('refuses links over 2,048 characters and takes http(s) URLs', async () => {
    const long = await raw('POST', '/api/bugs', {
      token: tester.token,
      body: bug({ attachments: [`https://example.com/${'a'.repeat(2048)}`] }),
    });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([{ field: 'attachments.0', message: 'Attachment must be an http or https URL' }]);
    const ok = await raw('POST', '/api/bugs', {
      token: tester.token,
      body: bug({ attachments: [' https://example.com/a.png ', 'http://example.com/b?c=d'] }),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.bug.attachments).toEqual(['https://example.com/a.png', 'http://example.com/b?c=d']);
  });
});
