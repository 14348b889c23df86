import { type Actor, apiTokenMessages, ForbiddenError, type Role, UnauthorizedError } from '@bugtrail/domain';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { TokenService } from './tokens.js';

export type AuthEnv = { Variables: { actor: Actor } };

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

type Identity = { kind: 'none' } | { kind: 'actor'; actor: Actor } | { kind: 'refused'; error: unknown };

/** One verification per request, whoever asks first (a command's door asks up to three times). */
const identities = new WeakMap<Request, Promise<Identity>>();

function identify(c: Context, tokens: TokenService): Promise<Identity> {
  let identity = identities.get(c.req.raw);
  if (!identity) {
    const token = bearerToken(c.req.header('authorization'));
    identity = token
      ? tokens.verify(token).then(
          (actor): Identity => ({ kind: 'actor', actor }),
          (error: unknown): Identity => ({ kind: 'refused', error }),
        )
      : Promise.resolve({ kind: 'none' });
    identities.set(c.req.raw, identity);
  }
  return identity;
}

/** The caller when the request carries a valid bearer token, else null (never throws). */
export async function optionalActor(c: Context, tokens: TokenService): Promise<Actor | null> {
  const identity = await identify(c, tokens);
  return identity.kind === 'actor' ? identity.actor : null;
}

/**
 * When the caller's session last proved who they are (its sign-in, ms), or null when the request
 * carries no session token (none, or an API token). Use after requireAuth.
 */
export async function sessionAuthenticatedAt(c: Context, tokens: TokenService): Promise<number | null> {
  const token = bearerToken(c.req.header('authorization'));
  return token ? tokens.authenticatedAt(token) : null;
}

/** 401 without a valid bearer token; sets `c.var.actor`. */
export function requireAuth(tokens: TokenService) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const identity = await identify(c, tokens);
    if (identity.kind === 'none') throw new UnauthorizedError('Not authorized, no token');
    if (identity.kind === 'refused') throw identity.error;
    c.set('actor', identity.actor);
    await next();
  });
}

/** 403 unless the actor has one of the roles. Use after requireAuth. */
export function requireRole(...allowed: Role[]) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    if (!allowed.includes(c.var.actor.role)) throw new ForbiddenError('You are not allowed to do this');
    await next();
  });
}

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A `read` API token may only read (api.md "Integrations"): anything but GET/HEAD answers 403
 * "Token scope does not allow this", before a body is read. Sessions and `write` tokens pass.
 */
export function apiTokenScope(tokens: TokenService) {
  return createMiddleware(async (c, next) => {
    if (readMethods.has(c.req.method)) return next();
    const actor = await optionalActor(c, tokens);
    if (actor?.apiToken?.scope === 'read') throw new ForbiddenError(apiTokenMessages.scopeRefused);
    return next();
  });
}
