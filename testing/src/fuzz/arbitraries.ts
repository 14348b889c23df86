/**
 * fast-check arbitraries for requests, built from the operations of the served document.
 *
 * Valid requests follow each parameter's and body field's JSON schema; where the schema is
 * looser than the domain (a title is "a string" to the validator, "5 to 100 characters" in
 * its description), the description's lengths are honoured and a few field names get
 * values that mean something in the world: ids that exist, the caller's own password, a
 * developer to assign, a cursor the server handed out. Invalid requests start from a valid
 * one and break one thing: a type, a field, the JSON itself, the media type, an id, the
 * query, a header, the multipart framing.
 */
import fc from 'fast-check';
import { type JsonSchema, type OpenApiModel, type Operation, resourceOf } from './openapi-model.js';
import { type FilePart, type FormPart, SAMPLE_IMAGES, SAMPLE_NON_IMAGES } from './samples.js';
import { type Caller, PASSWORDS, PRINCIPALS, type PrincipalName, uniqueEmail, type World } from './world.js';

export const INVALID_KINDS = [
  'wrong-type',
  'missing-field',
  'huge-string',
  'bad-characters',
  'malformed-json',
  'wrong-content-type',
  'deep-json',
  'bad-id',
  'path-traversal',
  'odd-query',
  'bad-header',
  'bad-multipart',
] as const;
export type InvalidKind = (typeof INVALID_KINDS)[number];
export type Mode = 'valid' | InvalidKind;

/** A value sent without encoding (a traversal or a broken percent-escape must reach the server as is). */
export type Raw = { raw: string };

/** A raw value as a client that does not encode would send it, less what HTTP itself cannot carry (spaces, controls, non-Latin-1). */
export const raw = (value: string): Raw => ({
  raw: value.replace(/[^\u0021-\u007e]/g, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%ED%A0%80';
    }
  }),
});
export type ParamValue = string | Raw;

export type FuzzBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string | Uint8Array; contentType: string | null }
  | { kind: 'multipart'; parts: FormPart[]; contentType?: string; truncate?: number };

export type FuzzRequest = {
  operation: Operation;
  caller: Caller;
  mode: Mode;
  pathParams: Record<string, ParamValue>;
  query: Array<[string, ParamValue]>;
  headers: Record<string, string>;
  body: FuzzBody | null;
  /** For a live stream: how long to keep it open before hanging up. */
  holdStreamMs: number;
};

export type GeneratorOptions = {
  /** Share of invalid requests, 0..1. */
  invalidShare: number;
  callers: readonly Caller[];
};

type Ctx = { op: Operation; caller: Caller; world: World; pathParams: Record<string, ParamValue> };

const CALLER_WEIGHTS: Record<Caller, number> = {
  anonymous: 2,
  intruder: 1,
  admin: 3,
  admin2: 2,
  tester: 3,
  tester2: 2,
  developer: 3,
  developer2: 2,
};

/** A constant-time pick from a list that changes while the fuzz runs. */
function pick<T>(list: () => readonly T[], fallback: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.constant(null).chain(() => {
    const items = list();
    return items.length > 0 ? fc.constantFrom(...items) : fallback;
  });
}

const printable = (min: number, max: number) => fc.string({ minLength: min, maxLength: max });
const WORDS = 'bug login fails on the dashboard when saving crash fix Ünïcödé 日本語 🐛'.split(' ');
/** Words up to `max` UTF-16 units (never half of a surrogate pair), padded to `min`. */
const words = (min: number, max: number) =>
  fc
    .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 40 })
    .map((w) => w.join(' '))
    .map((s) => (s.length < min ? s.padEnd(min, ' x') : s).slice(0, max).replace(/[\uD800-\uDBFF]$/, ''));

/** "5 to 100 characters", "at least 10 characters", "At most 50 characters" in a field's description. */
export function lengthsFromDescription(description: string): { min?: number; max?: number } {
  const num = (s: string) => Number(s.replaceAll(',', ''));
  const range = /(\d[\d,]*) to (\d[\d,]*) characters/i.exec(description);
  if (range) return { min: num(range[1]!), max: num(range[2]!) };
  const atLeast = /at least (\d[\d,]*) characters/i.exec(description);
  const atMost = /at most (\d[\d,]*) characters/i.exec(description);
  return {
    ...(atLeast ? { min: num(atLeast[1]!) } : {}),
    ...(atMost ? { max: num(atMost[1]!) } : {}),
  };
}

const STATUS_SPELLINGS = [
  'Open',
  'In Progress',
  'Closed',
  'Pending',
  'Resolved',
  'open',
  'in progress',
  'RESOLVED',
  '',
];

function dayOffset(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}

/** Values that mean something, by field name (body fields, query and header parameters). */
function semanticHint(name: string, ctx: Ctx, description: string): fc.Arbitrary<unknown> | null {
  const { world, op, caller } = ctx;
  const me = PRINCIPALS.includes(caller as PrincipalName) ? world.principal(caller as PrincipalName) : null;
  const targetId = typeof ctx.pathParams.id === 'string' ? ctx.pathParams.id : null;
  const principalEmails = () => PRINCIPALS.map((p) => world.principal(p).email);
  const userIds = (role?: string) => pick(() => world.userIds(role), fc.uuid());
  const someUserIds = (role?: string) =>
    fc.array(
      fc.oneof(
        {
          weight: 5,
          arbitrary: pick(
            () => PRINCIPALS.filter((p) => !role || p.startsWith(role)).map((p) => world.principal(p).id),
            fc.uuid(),
          ),
        },
        { weight: 2, arbitrary: userIds(role) },
        { weight: 1, arbitrary: userIds(role).map((_id) => ({ _id })) },
      ),
      { minLength: 1, maxLength: 3 },
    );
  const isLogin = op.path.endsWith('/login');
  const isRegister = op.path.endsWith('/register');
  switch (name) {
    case 'email':
      if (isLogin)
        return fc.oneof(
          { weight: 8, arbitrary: pick(principalEmails, fc.constant('x@example.com')) },
          fc.emailAddress(),
        );
      if (isRegister)
        return fc.oneof(
          { weight: 4, arbitrary: fc.constant(null).map(() => uniqueEmail('reg')) },
          { weight: 3, arbitrary: pick(principalEmails, fc.constant('x@example.com')) },
          { weight: 1, arbitrary: pick(principalEmails, fc.constant('x@example.com')).map((e) => e.toUpperCase()) },
        );
      return fc.oneof(
        {
          weight: 6,
          arbitrary: fc
            .constant(null)
            .map(() => (targetId && world.principalById(targetId)?.email) || uniqueEmail('upd')),
        },
        { weight: 2, arbitrary: fc.constant(null).map(() => uniqueEmail('upd')) },
        { weight: 1, arbitrary: pick(principalEmails, fc.constant('x@example.com')) },
        { weight: 1, arbitrary: fc.constantFrom('not-an-email', 'a@b', '@example.com', ' ') },
      );
    case 'password':
      if (isLogin)
        return fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...PASSWORDS) },
          { weight: 1, arbitrary: printable(0, 20) },
        );
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...PASSWORDS, '') },
        { weight: 1, arbitrary: printable(0, 7) },
        { weight: 1, arbitrary: printable(129, 140) },
      );
    case 'currentPassword':
      return fc.oneof(
        { weight: 6, arbitrary: fc.constant(null).map(() => me?.password ?? PASSWORDS[0]!) },
        { weight: 1, arbitrary: fc.constantFrom('wrong password!', '') },
      );
    case 'role':
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('tester', 'developer', 'admin') },
        { weight: 1, arbitrary: fc.constantFrom('Tester', 'ADMIN', 'auditor', 'superuser', '') },
        { weight: 1, arbitrary: fc.constant(null).map(() => me?.role ?? 'tester') },
      );
    case 'adminInviteToken':
      return fc.oneof(
        { weight: 5, arbitrary: fc.constant(world.inviteCode) },
        { weight: 1, arbitrary: pick(() => world.inviteCodes, fc.constant(world.inviteCode)) },
        { weight: 2, arbitrary: fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 999_999 }) },
      );
    case 'profileImageURL':
    case 'profileImageUrl':
      return fc.oneof(
        { weight: 4, arbitrary: pick(() => world.images, fc.constant('')) },
        {
          weight: 2,
          arbitrary: pick(() => world.images, fc.constant('')).map((u) => u.replace(/^https?:\/\/[^/]+/, '')),
        },
        { weight: 2, arbitrary: fc.constant('') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'https://evil.example.com/x.png',
            '/uploads/../../etc/passwd',
            'javascript:alert(1)',
          ),
        },
      );
    case 'dueDate':
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 365 }).map((d) => dayOffset(d)) },
        { weight: 3, arbitrary: fc.integer({ min: 0, max: 365 }).map((d) => dayOffset(d).slice(0, 10)) },
        { weight: 2, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.integer({ min: 2, max: 900 }).map((d) => dayOffset(-d).slice(0, 10)) },
        { weight: 1, arbitrary: fc.constantFrom('tomorrow', '2026-02-31', '9999-12-31', '') },
      );
    case 'assignedTo':
      return fc.oneof(
        { weight: 6, arbitrary: someUserIds('developer') },
        { weight: 1, arbitrary: someUserIds() },
        fc.constant([]),
      );
    case 'mentions': {
      // Mentions must be members of the chat: mostly mention some of them.
      const members = () => [...(world.chats.get(String(ctx.pathParams.id))?.participantIds ?? [])];
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constant(null).chain(() => {
            const all = members();
            return fc.subarray(all, { maxLength: Math.min(2, all.length) });
          }),
        },
        { weight: 1, arbitrary: someUserIds() },
        fc.constant([]),
      );
    }
    case 'participants':
    case 'admins':
      return fc.oneof({ weight: 4, arbitrary: someUserIds() }, fc.constant([]));
    case 'replyTo': {
      const chatId = typeof ctx.pathParams.id === 'string' ? ctx.pathParams.id : null;
      return fc.oneof(
        {
          weight: 3,
          arbitrary: pick(
            () => [...world.messages.values()].filter((m) => m.chatId === chatId).map((m) => m.id),
            fc.uuid(),
          ),
        },
        { weight: 1, arbitrary: pick(() => [...world.messages.keys()], fc.uuid()) },
        { weight: 1, arbitrary: fc.constant(null) },
      );
    }
    case 'checklist': {
      const itemIds = () => (targetId ? (world.bugs.get(targetId)?.itemIds ?? []) : []);
      const item = fc.oneof(
        { weight: 3, arbitrary: words(1, 60) },
        {
          weight: 3,
          arbitrary: fc.record(
            {
              _id: pick(itemIds, fc.uuid()),
              text: words(1, 60),
              completed: fc.boolean(),
            },
            { requiredKeys: ['text'] },
          ),
        },
      );
      return fc.array(item, { maxLength: 4 });
    }
    case 'attachments':
      return fc.array(
        fc.oneof(
          { weight: 5, arbitrary: fc.webUrl({ validSchemes: ['https', 'http'] }) },
          { weight: 1, arbitrary: fc.constantFrom('ftp://example.com/a', 'javascript:alert(1)', 'not a url') },
        ),
        { maxLength: 3 },
      );
    case 'status':
      return fc.oneof(
        { weight: 16, arbitrary: fc.constantFrom(...STATUS_SPELLINGS) },
        { weight: 2, arbitrary: printable(1, 12) },
        // Looked up in a plain object, these find Object.prototype's members.
        { weight: 1, arbitrary: fc.constantFrom('constructor', '__proto__', 'toString') },
      );
    case 'q':
      return fc.oneof(
        fc.constantFrom('bug', 'Tester', 'number', '#1', '#2', 'crash', '', 'Ünïcödé', '"quoted"', "o'brien", '%', '_'),
        printable(0, 30),
      );
    case 'limit':
      return fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: 1, max: 20 }).map(String) },
        fc.constantFrom('100', '1000'),
      );
    case 'cursor':
      // Without a cursor handed out yet, leave the parameter out (undefined drops it).
      return pick<string | undefined>(() => world.cursors, fc.constant(undefined));
    case 'page':
      return fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: 1, max: 3 }).map(String) },
        fc.constantFrom('1000000', '10'),
      );
    case 'at':
      return fc.oneof(
        fc.integer({ min: 0, max: 3_600_000 }).map((ms) => new Date(Date.now() - ms).toISOString()),
        fc.constantFrom('2020-01-01', '2999-01-01T00:00:00Z', new Date().toISOString().slice(0, 10)),
      );
    case 'Idempotency-Key':
      return fc.oneof(
        { weight: 6, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3') },
      );
    case 'If-Match':
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constant(null).map(() => String(targetId ? (world.bugs.get(targetId)?.version ?? 0) : 0)),
        },
        {
          weight: 1,
          arbitrary: fc.constant(null).map(() => `"${targetId ? (world.bugs.get(targetId)?.version ?? 0) : 0}"`),
        },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 50 }).map(String) },
        { weight: 1, arbitrary: fc.constant('*') },
      );
    case 'X-Min-Position':
    case 'Last-Event-ID':
      return pick(() => world.positions, fc.constant('0'.repeat(32)));
    case 'code':
      // One-time codes: almost always wrong, so no principal ever turns on a second factor by chance.
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')) },
        { weight: 1, arbitrary: fc.constantFrom('', 'abcdef', '1234567', 'aaaa-bbbb') },
      );
    case 'content':
      return fc.oneof(
        { weight: 4, arbitrary: words(1, 200) },
        { weight: 1, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: printable(1, 50) },
      );
    case 'title':
    case 'description':
    case 'module':
    case 'name': {
      const { min = name === 'name' ? 1 : 0, max = 60 } = lengthsFromDescription(description);
      const hi = Math.min(max, 200);
      return fc.oneof(
        { weight: 8, arbitrary: words(min, hi) },
        { weight: 1, arbitrary: printable(0, Math.max(min - 1, 0)) },
      );
    }
    default:
      return null;
  }
}

/** A value of the schema (valid as far as the schema goes), with semantic hints by field name. */
export function fromSchema(
  model: OpenApiModel,
  schema: JsonSchema,
  ctx: Ctx,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const resolved = model.resolve(schema);
  const description = String(resolved.description ?? schema.description ?? '');
  if (name) {
    const hint = semanticHint(name, ctx, description);
    if (hint) return hint;
  }
  if (depth > 6) return fc.constant(null);
  if (Array.isArray(resolved.enum)) return fc.constantFrom(...(resolved.enum as unknown[]));
  if ('const' in resolved) return fc.constant(resolved.const);
  const union = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (union?.length) return fc.oneof(...union.map((s) => fromSchema(model, s, ctx, undefined, depth + 1)));
  const type = resolved.type;
  if (Array.isArray(type)) {
    return fc.oneof(...type.map((t) => fromSchema(model, { ...resolved, type: t }, ctx, undefined, depth + 1)));
  }
  switch (type) {
    case 'string': {
      if (resolved.format === 'binary') return fc.constant('');
      if (resolved.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (resolved.format === 'email') return fc.emailAddress();
      if (typeof resolved.pattern === 'string')
        return fc.stringMatching(new RegExp(resolved.pattern)).map((s) => s.slice(0, 40));
      const lengths = lengthsFromDescription(description);
      const min = Number(resolved.minLength ?? lengths.min ?? 0);
      const max = Math.max(min, Math.min(Number(resolved.maxLength ?? lengths.max ?? 40), min + 40));
      return fc.oneof(
        { weight: 4, arbitrary: printable(min, max) },
        fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }),
      );
    }
    case 'integer':
      return fc.integer({
        min: Math.max(Number(resolved.minimum ?? -1000), -1_000_000),
        max: Math.min(Number(resolved.maximum ?? 1000), 1_000_000),
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (resolved.items ?? {}) as JsonSchema;
      const minLength = Number(resolved.minItems ?? 0);
      return fc.array(fromSchema(model, items, ctx, undefined, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(Number(resolved.maxItems ?? 3), 3)),
      });
    }
    default: {
      const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((resolved.required ?? []) as string[]);
      const entries = Object.entries(properties);
      if (entries.length === 0) return fc.constant({});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, prop] of entries) record[key] = fromSchema(model, prop, ctx, key, depth + 1);
      return fc.record(record, { requiredKeys: [...required] });
    }
  }
}

/** Any JSON value of another type than the one a schema asks for. */
function wrongTypeValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constant([]),
    fc.constant({}),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(printable(1, 5), fc.integer(), { maxKeys: 3 }),
    printable(0, 10),
    fc.constant(1e308),
    fc.constant(-0),
  );
}

const BAD_IDS = [
  '00000000-0000-0000-0000-000000000000',
  'not-an-id',
  "' OR 1=1 --",
  '1; DROP TABLE bugs',
  '{"$gt":""}',
  '%20',
  '%2F',
  'a'.repeat(300),
  'a'.repeat(5000),
  '%E2%80%AE',
  '%F0%9F%90%9B',
  '-1',
  '0',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '.',
  '%2e',
  'index.html',
];
const TRAVERSALS = [
  '..',
  '../..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%5C..%5Cwindows',
  '....//....//etc/passwd',
  '%252e%252e%252f',
  '..%c0%af..%c0%af',
  'x/../../../uploads',
];
const BAD_CHARACTERS = ['%00', 'a%00b', '%ED%A0%80', '%ED%B0%80', '%', '%zz', '%E0%A4', '%C0%80'];

function badCharacterString(): fc.Arbitrary<string> {
  return fc
    .tuple(
      printable(0, 10),
      fc.constantFrom('\u0000', '\uD800', '\uDC00', 'a\uDBFFb', '\u0000\u0000'),
      printable(0, 10),
    )
    .map(([a, bad, b]) => `${a}${bad}${b}`);
}

/** The value, or (unless required) absent `absent` times in `absent + 1`. */
const optional = (arb: fc.Arbitrary<unknown>, required: boolean, absent: number) =>
  required ? arb : fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** A valid request for the operation and caller (before any breaking). */
function validRequest(model: OpenApiModel, op: Operation, caller: Caller, world: World): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const paramArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of pathParams) paramArbs[p.name] = idFor(op, p.name, world, caller);
  let paramsArb: fc.Arbitrary<Record<string, string>> = fc.record(paramArbs);
  if ('messageId' in paramArbs && 'id' in paramArbs) {
    // A message id belongs to its chat: mostly pick a message and its chat together.
    const pair = pick(() => [...world.messages.values()], fc.constant(null)).chain((m) =>
      m ? fc.constant({ id: m.chatId, messageId: m.id }) : fc.record(paramArbs),
    );
    paramsArb = fc.oneof({ weight: 5, arbitrary: pair }, { weight: 1, arbitrary: paramsArb });
  }
  // Paths the server handed out (an uploaded image, a signed attachment link) fill the template whole.
  const template = templateMatcher(op.path);
  if (pathParams.length > 0) {
    const linked = pick(() => world.links.filter((link) => template.test(link)), fc.constant('')).chain((link) =>
      link ? fc.constant(link) : fc.constant(null),
    );
    const fromLinks = linked.chain((link) => {
      if (!link) return paramsArb.map((params) => ({ params, linkQuery: [] as Array<[string, ParamValue]> }));
      const match = template.exec(link)!;
      const params = Object.fromEntries(pathParams.map((p, i) => [p.name, decodeURIComponent(match[i + 1]!)]));
      const linkQuery = (match[pathParams.length + 1] ?? '')
        .split('&')
        .filter(Boolean)
        .map((pair): [string, ParamValue] => {
          const [k, v = ''] = pair.split('=');
          return [decodeURIComponent(k!), { raw: v }];
        });
      return fc.constant({ params, linkQuery });
    });
    return fc
      .oneof(
        { weight: 2, arbitrary: fromLinks },
        { weight: 3, arbitrary: paramsArb.map((params) => ({ params, linkQuery: [] as Array<[string, ParamValue]> })) },
      )
      .chain(({ params, linkQuery }) => requestWith(model, op, caller, world, params, linkQuery));
  }
  return paramsArb.chain((params) => requestWith(model, op, caller, world, params, []));
}

/** `/uploads/chat/{year}/{month}/{file}` → a regex capturing each parameter (and the query). */
function templateMatcher(path: string): RegExp {
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '([^/?#]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}(?:\\?(.*))?$`);
}

/** The rest of a valid request, once its path parameters are chosen. */
function requestWith(
  model: OpenApiModel,
  op: Operation,
  caller: Caller,
  world: World,
  params: Record<string, string>,
  linkQuery: Array<[string, ParamValue]>,
): fc.Arbitrary<FuzzRequest> {
  const ctx: Ctx = { op, caller, world, pathParams: params };
  // A handed-out link brings its own query (a signature, say): the generated one would only spoil it.
  const query = op.parameters
    .filter((p) => p.in === 'query' && linkQuery.length === 0)
    .map((p) => optional(fromSchema(model, p.schema, ctx, p.name), p.required, 1).map((v) => [p.name, v] as const));
  const headers = op.parameters
    .filter((p) => p.in === 'header')
    .map((p) => optional(fromSchema(model, p.schema, ctx, p.name), p.required, 3).map((v) => [p.name, v] as const));
  return fc
    .record({
      query: fc.tuple(...query),
      headers: fc.tuple(...headers),
      body: bodyFor(model, op, ctx),
      holdStreamMs: fc.integer({ min: 0, max: 150 }),
    })
    .map(({ query: q, headers: h, body, holdStreamMs }) => ({
      operation: op,
      caller,
      mode: 'valid' as Mode,
      pathParams: params,
      query: [
        ...linkQuery,
        ...q.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [k, String(v)] as [string, ParamValue]),
      ],
      headers: Object.fromEntries(h.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [k, String(v)])),
      body,
      holdStreamMs,
    }));
}

/**
 * An id for `{name}`, from the world's objects of the resource the path names: half the time
 * one the caller is involved in (so requests get past the permission checks and reach deeper),
 * else any, now and then a deleted one or one that never existed.
 */
function idFor(op: Operation, name: string, world: World, caller: Caller): fc.Arbitrary<string> {
  const resource = resourceOf(op.path, name);
  // Deleting sticks to objects the fuzz made: the seeded ones keep the per-object checks meaningful.
  const isDelete = op.method === 'delete' && op.path.endsWith(`{${name}}`);
  const me = PRINCIPALS.includes(caller as PrincipalName) ? world.principal(caller as PrincipalName).id : null;
  let mine: () => string[];
  let any: () => string[];
  let gone: () => string[] = () => [];
  switch (resource) {
    case 'bugs': {
      const live = () => world.liveBugs().filter((b) => !isDelete || !b.seeded);
      mine = () =>
        live()
          .filter((b) => b.creatorId === me || (me !== null && b.assigneeIds.has(me)))
          .map((b) => b.id);
      any = () => live().map((b) => b.id);
      gone = () => [...world.bugs.values()].filter((b) => b.deleted).map((b) => b.id);
      break;
    }
    case 'user':
    case 'users':
      mine = () => (me ? [me] : []);
      any = () => [...PRINCIPALS.map((p) => world.principal(p).id), ...world.userIds().slice(0, 50)];
      if (op.path.endsWith('/role')) {
        // A principal's role is who the caller is (the permission oracle reads it): roles
        // change only for users the fuzz registered itself.
        const others = () =>
          world
            .userIds()
            .filter((id) => !world.principalById(id))
            .slice(0, 50);
        mine = others;
        any = others;
      }
      break;
    case 'chats': {
      const live = () => world.liveChats().filter((c) => !isDelete || !c.seeded);
      mine = () =>
        live()
          .filter((c) => me !== null && c.participantIds.has(me))
          .map((c) => c.id);
      any = () => live().map((c) => c.id);
      gone = () => [...world.chats.values()].filter((c) => c.deleted).map((c) => c.id);
      break;
    }
    case 'messages':
      mine = () => [...world.messages.values()].filter((m) => m.senderId === me).map((m) => m.id);
      any = () => [...world.messages.keys()];
      break;
    default:
      mine = () => [];
      any = () => [...world.bugs.keys(), ...world.chats.keys()];
  }
  const fallback = pick(any, fc.uuid());
  return fc.oneof(
    { weight: 8, arbitrary: pick(mine, fallback) },
    { weight: 8, arbitrary: fallback },
    { weight: 1, arbitrary: pick(gone, fc.uuid()) },
    { weight: 1, arbitrary: fc.uuid() },
  );
}

function bodyFor(model: OpenApiModel, op: Operation, ctx: Ctx): fc.Arbitrary<FuzzBody | null> {
  if (!op.body) return fc.constant(null);
  if (op.body.contentType === 'multipart/form-data') return multipartFor(model, op, ctx);
  const json = fromSchema(model, op.body.schema, ctx).map((value) => coherent(op, ctx, value));
  const asJson = json.map((value): FuzzBody => ({ kind: 'json', value }));
  if (!op.multipartFileField) return asJson;
  return fc.oneof({ weight: 3, arbitrary: asJson }, { weight: 1, arbitrary: multipartFor(model, op, ctx) });
}

/** Fields that only make sense together: a login's password belongs to its email. */
function coherent(op: Operation, ctx: Ctx, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const body = value as Record<string, unknown>;
  if (op.path.endsWith('/login') && typeof body.email === 'string' && body.password !== undefined) {
    const owner = PRINCIPALS.map((p) => ctx.world.principal(p)).find((p) => p.email === body.email);
    if (owner && PASSWORDS.includes(String(body.password))) body.password = owner.password;
  }
  return body;
}

/** A multipart form from the body schema: binary fields get files, the rest text; `multipartFileField` files too. */
function multipartFor(model: OpenApiModel, op: Operation, ctx: Ctx): fc.Arbitrary<FuzzBody> {
  const schema = model.resolve(op.body!.schema);
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const file = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...SAMPLE_IMAGES) },
    { weight: 1, arbitrary: fc.constantFrom(...SAMPLE_NON_IMAGES) },
    { weight: 1, arbitrary: randomFile },
  );
  const parts = properties.map(([name, prop]) => {
    const resolved = model.resolve(prop);
    if (resolved.format === 'binary') return file.map((f): FormPart[] => [{ name, ...f }]);
    return fc.option(fromSchema(model, prop, ctx, name), { nil: undefined }).map((v): FormPart[] => {
      if (v === undefined || v === null) return [];
      if (Array.isArray(v))
        return [{ name, value: v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(',') }];
      return [{ name, value: typeof v === 'object' ? JSON.stringify(v) : String(v) }];
    });
  });
  const files = op.multipartFileField
    ? fc.array(file, { maxLength: 3 }).map((fs): FormPart[] => fs.map((f) => ({ name: op.multipartFileField!, ...f })))
    : fc.constant([] as FormPart[]);
  return fc
    .tuple(fc.tuple(...parts), files)
    .map(([p, f]): FuzzBody => ({ kind: 'multipart', parts: [...p.flat(), ...f] }));
}

/** A few random bytes under a random name and type. */
const randomFile = fc
  .record({
    bytes: fc.uint8Array({ minLength: 1, maxLength: 2048 }),
    filename: fc.constantFrom('random.bin', 'photo.png', 'x', 'a b.jpg', 'ünï.gif'),
    type: fc.constantFrom('application/octet-stream', 'image/png', 'image/jpeg', 'text/html'),
  })
  .map((f): FilePart => f);

/** Breaks one thing of a valid request. */
function breakRequest(kind: InvalidKind, request: FuzzRequest): fc.Arbitrary<FuzzRequest> {
  const r = (patch: Partial<FuzzRequest>): FuzzRequest => ({ ...request, ...patch, mode: kind });
  const json = request.body?.kind === 'json' ? (request.body.value as Record<string, unknown>) : null;
  const keys = json && typeof json === 'object' && !Array.isArray(json) ? Object.keys(json) : [];
  const schema = request.operation.body?.schema;
  const schemaKeys = Object.keys((schema?.properties ?? {}) as object);
  const bodyKeys = [...new Set([...keys, ...schemaKeys])];
  const withField = (key: string, value: unknown): FuzzRequest =>
    r({ body: { kind: 'json', value: { ...(json ?? {}), [key]: value } } });
  const pathNames = Object.keys(request.pathParams);
  switch (kind) {
    case 'wrong-type':
      if (bodyKeys.length === 0) return wrongTypeValue().map((value) => r({ body: { kind: 'json', value } }));
      return fc.tuple(fc.constantFrom(...bodyKeys), wrongTypeValue()).map(([key, value]) => withField(key, value));
    case 'missing-field':
      return fc.constantFrom(
        r({ body: null }),
        r({ body: { kind: 'json', value: {} } }),
        r({ body: { kind: 'json', value: null } }),
        r({ body: { kind: 'json', value: [] } }),
        r({ body: { kind: 'raw', text: '', contentType: 'application/json' } }),
      );
    case 'huge-string': {
      const sizes = fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 10_001, max: 120_000 }) },
        { weight: 1, arbitrary: fc.constant(1_100_000) },
      );
      if (bodyKeys.length === 0) return sizes.map((n) => r({ body: { kind: 'json', value: { x: 'x'.repeat(n) } } }));
      return fc.tuple(fc.constantFrom(...bodyKeys), sizes).map(([key, n]) => withField(key, 'x'.repeat(n)));
    }
    case 'bad-characters': {
      const inBody =
        bodyKeys.length > 0
          ? fc.tuple(fc.constantFrom(...bodyKeys), badCharacterString()).map(([key, value]) => withField(key, value))
          : null;
      const inKey = badCharacterString().map((key) =>
        r({ body: { kind: 'json', value: { ...(json ?? {}), [key]: 'x' } } }),
      );
      const inQuery = fc
        .tuple(fc.constantFrom('q', 'status', 'page', 'x'), fc.constantFrom(...BAD_CHARACTERS))
        .map(([k, v]) => r({ query: [...request.query, [k, raw(v)]] }));
      const inPath =
        pathNames.length > 0
          ? fc
              .tuple(fc.constantFrom(...pathNames), fc.constantFrom(...BAD_CHARACTERS))
              .map(([k, v]) => r({ pathParams: { ...request.pathParams, [k]: raw(v) } }))
          : inQuery;
      return fc.oneof(...[inBody, inKey, inQuery, inPath].filter((a): a is fc.Arbitrary<FuzzRequest> => a !== null));
    }
    case 'malformed-json':
      return fc
        .constantFrom(
          '{',
          '{"title": "x",}',
          "{'title': 'x'}",
          '[1,2',
          'nul',
          '{"a":1}}',
          '\u00ef\u00bb\u00bf{}',
          '{"a":NaN}',
          '{"a":1e99999}',
          '"\\ud800"',
          '{"a":"\\u0000"}',
          '{"__proto__":{"admin":true}}',
        )
        .map((text) => r({ body: { kind: 'raw', text, contentType: 'application/json' } }));
    case 'wrong-content-type':
      return fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/xml',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'application/json; charset=utf-16',
            'image/png',
            null,
          ),
          fc.constantFrom('{"title":"Some bug title"}', 'title=x&description=y', '<bug/>', 'plain'),
        )
        .map(([contentType, text]) => r({ body: { kind: 'raw', text, contentType } }));
    case 'deep-json':
      return fc.tuple(fc.integer({ min: 500, max: 200_000 }), fc.boolean()).map(([depth, asArray]) =>
        r({
          body: {
            kind: 'raw',
            text: asArray ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
            contentType: 'application/json',
          },
        }),
      );
    case 'bad-id':
      if (pathNames.length === 0) return breakRequest('odd-query', request).map((x) => ({ ...x, mode: kind }));
      return fc
        .tuple(
          fc.constantFrom(...pathNames),
          fc.oneof(fc.constantFrom(...BAD_IDS), printable(1, 20).map(encodeURIComponent)),
        )
        .map(([k, v]) => r({ pathParams: { ...request.pathParams, [k]: raw(v) } }));
    case 'path-traversal':
      if (pathNames.length === 0) return breakRequest('odd-query', request).map((x) => ({ ...x, mode: kind }));
      return fc
        .tuple(fc.constantFrom(...pathNames), fc.constantFrom(...TRAVERSALS))
        .map(([k, v]) => r({ pathParams: { ...request.pathParams, [k]: raw(v) } }));
    case 'odd-query':
      return fc
        .array(
          fc.oneof(
            fc.tuple(
              fc.constantFrom('limit', 'page', 'status', 'q', 'cursor', 'at'),
              fc.constantFrom(
                '-1',
                '0',
                '1.5',
                '1e3',
                'NaN',
                'Infinity',
                '99999999999999999999',
                '',
                ' ',
                'true',
                '[]',
                '{}',
                'null',
              ),
            ),
            // Names of Object.prototype members: a lookup table keyed by user input answers them.
            fc.tuple(
              fc.constantFrom('status', 'page', 'limit'),
              fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'),
            ),
            fc.tuple(
              fc.constantFrom('limit[]', 'status[]', 'page[0]', '__proto__', 'constructor', 'x'.repeat(300)),
              printable(0, 5).map(encodeURIComponent),
            ),
            fc.tuple(
              fc.constantFrom('cursor', 'at'),
              fc.constantFrom('not-a-cursor', 'eyJ4IjoxfQ', '2021-13-45', '2024-02-30T25:00:00Z', 'a'.repeat(600)),
            ),
          ),
          { minLength: 1, maxLength: 4 },
        )
        .map((extra) =>
          r({ query: [...request.query, ...extra.map(([k, v]) => [k, raw(v)] as [string, ParamValue])] }),
        );
    case 'bad-header':
      return fc
        .tuple(
          fc.constantFrom(
            'If-Match',
            'Idempotency-Key',
            'X-Min-Position',
            'Last-Event-ID',
            'Accept',
            'Content-Length-Lie',
          ),
          fc.constantFrom(
            'garbage',
            '"',
            'W/"abc"',
            '-1',
            '99999999999',
            'x'.repeat(300),
            'zz'.repeat(16),
            '0'.repeat(33),
            'f'.repeat(32),
            ' ',
            '*/*;q=abc',
          ),
        )
        .map(([name, value]) =>
          r({ headers: { ...request.headers, [name === 'Content-Length-Lie' ? 'X-Content-Length' : name]: value } }),
        );
    case 'bad-multipart': {
      const files = fc.oneof(fc.constantFrom(...SAMPLE_NON_IMAGES), randomFile);
      const field = request.operation.multipartFileField ?? 'image';
      return fc.oneof(
        files.map((f) => r({ body: { kind: 'multipart', parts: [{ name: field, ...f }] } })),
        files.map((f) => r({ body: { kind: 'multipart', parts: [{ name: 'other', ...f }] } })),
        fc.constant(r({ body: { kind: 'multipart', parts: [{ name: field, value: 'just text' }] } })),
        fc.constant(r({ body: { kind: 'multipart', parts: [] } })),
        fc.constant(
          r({
            body: {
              kind: 'multipart',
              parts: [{ name: field, ...SAMPLE_IMAGES[0]! }],
              contentType: 'multipart/form-data',
            },
          }),
        ),
        fc.constant(
          r({
            body: {
              kind: 'multipart',
              parts: [{ name: field, ...SAMPLE_IMAGES[0]! }],
              contentType: 'multipart/form-data; boundary=other',
            },
          }),
        ),
        fc
          .integer({ min: 1, max: 60 })
          .map((n) => r({ body: { kind: 'multipart', parts: [{ name: field, ...SAMPLE_IMAGES[1]! }], truncate: n } })),
        fc.constant(
          r({
            body: {
              kind: 'multipart',
              parts: Array.from({ length: 7 }, () => ({ name: field, ...SAMPLE_IMAGES[0]! })),
            },
          }),
        ),
      );
    }
  }
}

function applicableKinds(op: Operation): InvalidKind[] {
  const hasPath = op.parameters.some((p) => p.in === 'path');
  const writes = op.method !== 'get';
  const multipart = op.body?.contentType === 'multipart/form-data' || op.multipartFileField !== null;
  return INVALID_KINDS.filter((kind) => {
    switch (kind) {
      case 'bad-id':
      case 'path-traversal':
        return hasPath;
      case 'wrong-type':
      case 'missing-field':
      case 'huge-string':
      case 'deep-json':
        return op.body?.contentType.includes('json') ?? false;
      case 'malformed-json':
      case 'wrong-content-type':
        return writes;
      case 'bad-multipart':
        return multipart;
      default:
        return true;
    }
  });
}

/** Every request the fuzz may send for one operation: a caller, valid or broken in one way. */
export function operationArbitrary(
  model: OpenApiModel,
  op: Operation,
  world: World,
  options: GeneratorOptions,
): fc.Arbitrary<FuzzRequest> {
  const callers = options.callers.map((caller) => ({ weight: CALLER_WEIGHTS[caller], arbitrary: fc.constant(caller) }));
  const kinds = applicableKinds(op);
  const invalidWeight = Math.round(options.invalidShare * 100);
  const modes: Array<fc.WeightedArbitrary<Mode>> = [
    { weight: 100 - invalidWeight, arbitrary: fc.constant('valid' as Mode) },
  ];
  if (invalidWeight > 0 && kinds.length > 0) {
    modes.push({ weight: invalidWeight, arbitrary: fc.constantFrom(...kinds) });
  }
  return fc.tuple(fc.oneof(...callers), fc.oneof(...modes)).chain(([caller, mode]) => {
    const valid = validRequest(model, op, caller, world);
    return mode === 'valid' ? valid : valid.chain((request) => breakRequest(mode, request));
  });
}
