import { apiTokenMessages, ForbiddenError } from '@bugtrail/domain';
import { optionalActor, type TokenService } from '@bugtrail/platform';
import { createMiddleware } from 'hono/factory';

/**
 * What no API token may do, whatever its scope (api.md "Integrations"): mint tokens, change
 * a role or two-step sign-in, make a password reset link or an admin invite code, or manage
 * webhooks. (A password or email change is
 * refused by the profile route, which sees the body.) Deny at the door, before a body is read.
 */
const refused: readonly { methods: RegExp; path: RegExp }[] = [
  { methods: /^POST$/, path: /^\/api\/tokens\/?$/ },
  { methods: /^(POST|PUT|PATCH|DELETE)$/, path: /^\/api\/auth\/mfa(\/|$)/ },
  { methods: /^(POST|PUT|PATCH|DELETE)$/, path: /^\/api\/users\/[^/]+\/role\/?$/ },
  // A reset link sets a password; an admin invite code makes an admin: both are sign-in, not scripting.
  { methods: /^POST$/, path: /^\/api\/users\/[^/]+\/reset-link\/?$/ },
  { methods: /^(POST|DELETE)$/, path: /^\/api\/auth\/invite-codes(\/|$)/ },
  { methods: /^(POST|PUT|PATCH|DELETE)$/, path: /^\/api\/webhooks(\/|$)/ },
];

export function apiTokenLimits(tokens: TokenService) {
  return createMiddleware(async (c, next) => {
    const { method, path } = c.req;
    if (!refused.some((rule) => rule.methods.test(method) && rule.path.test(path))) return next();
    const actor = await optionalActor(c, tokens);
    if (actor?.apiToken) throw new ForbiddenError(apiTokenMessages.notWithToken);
    return next();
  });
}
