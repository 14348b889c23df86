import { type Actor, ForbiddenError, type Role, UnauthorizedError } from '@bugtrail/domain';
import { createMiddleware } from 'hono/factory';
import type { TokenService } from './tokens.js';

export type AuthEnv = { Variables: { actor: Actor } };

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** 401 without a valid bearer token; sets `c.var.actor`. */
export function requireAuth(tokens: TokenService) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (!token) throw new UnauthorizedError('Not authorized, no token');
    c.set('actor', await tokens.verify(token));
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
