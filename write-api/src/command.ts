import { randomUUID } from 'node:crypto';
import type { Actor, Command, Decider, Event, Role } from '@bugtrail/domain';
import { ConflictError, NotFoundError, ValidationError } from '@bugtrail/domain';
import { type CommandContext, deriveEventId, type Handled, type HandleOptions } from '@bugtrail/eventstore';
import {
  type AuthEnv,
  type BodySpec,
  type RouteSpec,
  readJson,
  readQuery,
  requireAuth,
  requireRole,
} from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import { idempotencyHeader } from './commands.openapi.js';
import { commandContext, settle, type WriteApiDeps } from './deps.js';
import { withProjectRights } from './projects/project-rights.js';

/** What a declaration's functions see of one request: its input, who asks, and when. */
export type CommandRequest<Body, Params> = Readonly<{
  body: Body;
  params: Params;
  /** The query string, as the declaration's `query` schema read it (an empty object without one). */
  query: Readonly<Record<string, string | undefined>>;
  actor: Actor;
  context: CommandContext;
  /** The time the command is decided at (ISO 8601), the same for every use in one request. */
  now: string;
  /**
   * The id of what the command creates, the same for every call with one `scope` in a request:
   * derived from the Idempotency-Key and the caller when there is one (a retry names the same
   * object, so nothing new is appended), else random.
   */
  newId: (scope: string) => string;
  /** The version `If-Match` pinned (declarations with `ifMatch`); undefined when none was sent. */
  expectedVersion: number | undefined;
  /**
   * What one request learns once and uses twice: `compute` runs on the first call with `key`, and
   * every later call in the same request gets that first result (a lookup `command` made, read
   * again by `answer`).
   */
  once: <T>(key: string, compute: () => T) => T;
}>;

export type CommandAnswer = Readonly<{
  status: 200 | 201 | 204;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}>;

/** What may be slow to work out (another stream's facts, a number from a sequence) may be awaited. */
type MaybeAsync<T> = T | Promise<T>;

/**
 * One command, declared once (issue 34): the HTTP route and its OpenAPI entry, the input
 * schemas, the stream, the decider and the command it is given, the concurrency and
 * idempotency policy, and the answer. `commandRoutes` serves a list of them and
 * `commandOperations` documents the same list, so a route cannot drift from its entry.
 *
 * Each request: a bearer token, then the roles and `admits` (before any body is read), then the
 * path parameters (one that cannot name anything is 404 `notFound`), then `If-Match`, then the
 * body (zod: 400 with each field's message), then read → decide → append through the one
 * command handler, then read-your-writes (`settle`) and the answer.
 */
export type CommandDeclaration<Body, Params, State, C extends Command, E extends Event> = Readonly<{
  method: 'post' | 'put' | 'patch' | 'delete';
  /** Relative to the router's mount, Hono style (`/:id`); the OpenAPI path is derived (`/{id}`). */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Who may send it; anyone signed in when left out. Auditors are refused at the door anyway (ADR 012). */
  roles?: readonly Role[];
  /**
   * Who may send it, in words, where the decider decides per object (`tester (own)`): documented
   * in OpenAPI instead of `roles`, enforced by the decider.
   */
  audience?: readonly string[];
  /** A check on the caller alone, before the body is read: throws the domain's refusal (403). */
  admits?: (actor: Actor) => void;
  /**
   * Reads `If-Match: <version>` (bare, quoted or weak) into `expectedVersion`; anything else is 400
   * with `ifMatch`'s message. A stale version is 409, or 404 `params.notFound` when the stream is empty.
   */
  ifMatch?: Readonly<{ message: string; openapi: z.ZodObject }>;
  /**
   * Path parameters; a value the schema refuses names nothing: 404 with `notFound`, or with the
   * message of the first refused parameter (`{ id: 'Bug not found', commentId: 'Comment not found' }`).
   */
  params?: Readonly<{
    schema: z.ZodType<Params>;
    notFound: string | Readonly<Record<string, string>>;
    openapi: z.ZodObject;
  }>;
  body?: Readonly<{ schema: z.ZodType<Body> & z.ZodObject; fields?: BodySpec['fields'] }>;
  /** The query string's parameters (zod: 400 with the field's message), for a DELETE that says which. */
  query?: z.ZodObject;
  stream: (request: CommandRequest<Body, Params>) => string;
  decider: Decider<State, C, E>;
  /**
   * The command's type and data; the metadata (actor, time) is added. It may ask `deps` for what
   * the decider needs from elsewhere (the roles of people named, a number from a sequence).
   */
  command: (request: CommandRequest<Body, Params>, deps: WriteApiDeps) => MaybeAsync<Pick<C, 'type' | 'data'>>;
  /**
   * Concurrency and idempotency (retry on conflict, must be new, the natural key, …), and the
   * write side's own rows that change in the append's transaction (`alongside`, ADR 026).
   */
  policy?: HandleOptions<State> | ((request: CommandRequest<Body, Params>) => HandleOptions<State>);
  /** The answer, from the stream's state after the command and the command it was given. */
  answer: (
    handled: Handled<State>,
    request: CommandRequest<Body, Params>,
    command: Pick<C, 'type' | 'data'>,
    deps: WriteApiDeps,
  ) => MaybeAsync<CommandAnswer>;
  responses: RouteSpec['responses'];
}>;

/** A list holds declarations of every command's own types. */
export type AnyCommandDeclaration = CommandDeclaration<any, any, any, any, any>;

/** Declares a command; only here so TypeScript infers each declaration's types from its parts. */
export function defineCommand<Body, Params, State, C extends Command, E extends Event>(
  declaration: CommandDeclaration<Body, Params, State, C, E>,
): CommandDeclaration<Body, Params, State, C, E> {
  return declaration;
}

/** A router serving every declared command, mounted where its declarations' paths are relative to. */
export function commandRoutes(deps: WriteApiDeps, declarations: readonly AnyCommandDeclaration[]) {
  const app = new Hono<AuthEnv>();
  for (const declaration of declarations) {
    const guards = [
      requireAuth(deps.tokens),
      ...(declaration.roles ? [requireRole(...declaration.roles)] : []),
      // Who the caller is includes the private projects hidden from them (issue 35).
      withProjectRights(deps),
    ] as const;
    app.on(declaration.method.toUpperCase(), declaration.path, ...guards, async (c) => {
      const answer = await runCommand(deps, declaration, c);
      for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
      if (answer.status === 204) return c.body(null, 204);
      return c.json(answer.body ?? null, answer.status);
    });
  }
  return app;
}

async function runCommand(deps: WriteApiDeps, declaration: AnyCommandDeclaration, c: Context<AuthEnv>) {
  const actor = c.var.actor;
  declaration.admits?.(actor);
  let params: unknown = {};
  if (declaration.params) {
    const parsed = declaration.params.schema.safeParse(c.req.param());
    if (!parsed.success) throw new NotFoundError(notFound(declaration, parsed.error.issues[0]?.path[0]));
    params = parsed.data;
  }
  const expectedVersion = declaration.ifMatch ? ifMatchVersion(c, declaration.ifMatch.message) : undefined;
  const query = declaration.query ? (readQuery(c, declaration.query) as Record<string, string | undefined>) : {};
  const body = declaration.body ? await readJson(c, declaration.body.schema) : undefined;
  const context = commandContext(c, actor);
  const ids = new Map<string, string>();
  const learned = new Map<string, unknown>();
  const request: CommandRequest<unknown, unknown> = {
    body,
    params,
    query,
    actor,
    context,
    now: (deps.now?.() ?? new Date()).toISOString(),
    newId: (scope) => {
      let id = ids.get(scope);
      if (!id) {
        id = context.idempotencyKey ? deriveEventId(context.idempotencyKey, `${actor.id}:${scope}`, 0) : randomUUID();
        ids.set(scope, id);
      }
      return id;
    },
    expectedVersion,
    once: <T>(key: string, compute: () => T): T => {
      if (!learned.has(key)) learned.set(key, compute());
      return learned.get(key) as T;
    },
  };
  const policy = typeof declaration.policy === 'function' ? declaration.policy(request) : declaration.policy;
  const command = await declaration.command(request, deps);
  const streamId = declaration.stream(request);
  let handled: Handled<unknown>;
  try {
    handled = await deps.commands.handle(
      streamId,
      declaration.decider,
      { ...command, metadata: { actor, now: request.now } },
      request.context,
      policy,
    );
  } catch (error) {
    // A version pinned on a stream that does not exist names nothing: 404, not stale.
    if (error instanceof ConflictError && policy?.expectedVersion !== undefined && declaration.params) {
      const { revision } = await deps.commands.load(streamId, declaration.decider);
      if (revision < 0) throw new NotFoundError(notFound(declaration));
    }
    throw error;
  }
  await settle(c, deps, handled.position);
  return declaration.answer(handled, request, command, deps);
}

/** The 404 message for a refused path parameter (`key`), or for the object the path names. */
function notFound(declaration: AnyCommandDeclaration, key?: PropertyKey): string {
  const messages = declaration.params?.notFound ?? 'Not found';
  if (typeof messages === 'string') return messages;
  return (typeof key === 'string' ? messages[key] : undefined) ?? Object.values(messages)[0] ?? 'Not found';
}

/** `If-Match: <version>` (bare or quoted, as sent back from `version` or the ETag); `*` pins nothing. */
function ifMatchVersion(c: Context, message: string): number | undefined {
  const raw = c.req.header('if-match')?.trim();
  if (!raw || raw === '*') return undefined;
  const value = raw.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  if (!/^\d{1,9}$/.test(value)) throw ValidationError.field('If-Match', message);
  return Number(value);
}

/** The OpenAPI entries of the same declarations, relative to the same mount. */
export function commandOperations(declarations: readonly AnyCommandDeclaration[]): RouteSpec[] {
  return declarations.map((declaration) => ({
    method: declaration.method,
    path: declaration.path.replace(/:(\w+)/g, '{$1}'),
    summary: declaration.summary,
    ...(declaration.description ? { description: declaration.description } : {}),
    tags: declaration.tags,
    ...(declaration.roles || declaration.audience
      ? { roles: [...(declaration.audience ?? declaration.roles ?? [])] }
      : {}),
    ...(declaration.params ? { params: declaration.params.openapi } : {}),
    ...(declaration.query ? { query: declaration.query } : {}),
    headers: declaration.ifMatch?.openapi ?? idempotencyHeader,
    ...(declaration.body
      ? {
          body: {
            schema: declaration.body.schema,
            ...(declaration.body.fields ? { fields: declaration.body.fields } : {}),
          },
        }
      : {}),
    responses: declaration.responses,
  }));
}
