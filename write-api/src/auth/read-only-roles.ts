import { type Actor, ForbiddenError, rolePermissions, userMessages } from '@bugtrail/domain';
import { optionalActor, type TokenService } from '@bugtrail/platform';
import { createMiddleware } from 'hono/factory';

/**
 * Auditors change nothing (api.md "The auditor role"): every command answers 403 for
 * them, whichever router serves it. Deny by default, at the door: a command route
 * added later is closed to auditors unless it is listed here. The deciders refuse
 * them as well (bug and chat permissions, ChangeRole); this is the guard that also
 * covers what no decider sees (an upload stored before deciding, a new route).
 *
 * Allowed: what acts on the auditor themselves (their profile, session, two-factor
 * settings, API tokens) and the anonymous routes, which never act for the caller's token.
 */
const allowed: readonly { method: string; path: RegExp; selfOnly?: boolean }[] = [
  // Anonymous: signup, login, its second factor, the image picked before signing up.
  { method: 'POST', path: /^\/api\/auth\/(register|login|mfa\/verify|upload-image|forgot|reset)\/?$/ },
  // Their own notifications (the route marks only the caller's).
  { method: 'POST', path: /^\/api\/notifications\/(read|unsubscribe)\/?$/ },
  { method: 'PUT', path: /^\/api\/users\/([^/]+)\/preferences\/?$/, selfOnly: true },
  { method: 'POST', path: /^\/api\/auth\/logout\/?$/ },
  { method: 'POST', path: /^\/api\/auth\/mfa\/(setup|enable|disable)\/?$/ },
  { method: 'PUT', path: /^\/api\/users\/([^/]+)\/?$/, selfOnly: true },
  { method: 'PATCH', path: /^\/api\/users\/([^/]+)\/?$/, selfOnly: true },
  // Their own API tokens (a token acts as its owner: an auditor's changes nothing either).
  { method: 'POST', path: /^\/api\/tokens\/?$/ },
  { method: 'DELETE', path: /^\/api\/tokens\/[^/]+\/?$/ },
];

/** Whether a read-only actor may send this request (a path parameter must name themselves where it names a user). */
export function isAllowedForReadOnly(method: string, path: string, actor: Actor): boolean {
  return allowed.some((rule) => {
    if (rule.method !== method) return false;
    const match = rule.path.exec(path);
    if (!match) return false;
    return !rule.selfOnly || safeDecode(match[1] ?? '') === actor.id;
  });
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const reads = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * 403 for a read-only role's command, before its body is read or anything is stored.
 * A missing or bad token passes through: the route's own `requireAuth` answers it.
 */
export function readOnlyRoles(tokens: TokenService) {
  return createMiddleware(async (c, next) => {
    if (reads.has(c.req.method)) return next();
    const actor = await optionalActor(c, tokens);
    if (!actor) return next();
    if (rolePermissions.isReadOnly(actor) && !isAllowedForReadOnly(c.req.method, c.req.path, actor)) {
      throw new ForbiddenError(userMessages.readOnlyRole);
    }
    return next();
  });
}
