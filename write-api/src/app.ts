import {
  absoluteProfileImages,
  apiTokenScope,
  closeUnreadBodies,
  createErrorHandler,
  createOpsRoutes,
  httpMetrics,
  httpSecurity,
  MailOutbox,
  notFoundJson,
  type Readiness,
  rejectInvalidCharacters,
  requestContext,
} from '@bugtrail/platform';
import { Hono } from 'hono';
import { apiTokenLimits } from './auth/api-token-limits.js';
import { createAuthRoutes } from './auth/auth.routes.js';
import { createMfaRoutes } from './auth/mfa.routes.js';
import { createOidcRoutes } from './auth/oidc.routes.js';
import { readOnlyRoles } from './auth/read-only-roles.js';
import { createBugRoutes } from './bugs/bugs.routes.js';
import { createChatRoutes } from './chats/chats.routes.js';
import { commandRoutes } from './command.js';
import { declaredCommands } from './commands.js';
import type { WriteApiDeps } from './deps.js';
import { idempotency } from './idempotency.js';
import { createImportRoutes } from './import/import.routes.js';
import { createCodeLinkRoutes } from './integrations/code-links.routes.js';
import { createNotificationRoutes, createOneClickUnsubscribeRoutes } from './notifications/notifications.routes.js';
import { createTokenRoutes } from './tokens/tokens.routes.js';
import { createUploadRoutes } from './uploads/uploads.routes.js';
import { createPasswordResetRoutes, createPeopleRoutes } from './users/people.routes.js';
import { resetMailer } from './users/reset-mail.js';
import { createUserRoutes } from './users/users.routes.js';
import { createWebhookRoutes } from './webhooks/webhooks.routes.js';

/**
 * The GETs that are write-api's: single sign-on starts flows and makes accounts (ADR 018);
 * API tokens and webhooks are settings kept beside the credentials, read from where they are kept.
 */
export const writeApiReadPaths = ['/api/auth/oidc', '/api/tokens', '/api/webhooks'] as const;

/** Whether a GET/HEAD to this path is write-api's (the in-process split and deploy/nginx.conf agree). */
export function isWriteApiRead(pathname: string): boolean {
  return writeApiReadPaths.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** write-api: every command (POST/PUT/PATCH/DELETE), and the GETs of `writeApiReadPaths`. Reads go to read-api. */
export function createWriteApi(deps: WriteApiDeps): Hono {
  const app = new Hono();
  app.onError(createErrorHandler(deps.logger));
  // One correlation id per request, on every event and log line it causes.
  app.use('*', requestContext(deps.logger));
  // A body refused before it was read (who may send it, to what) is not drained off the socket.
  app.use('*', closeUnreadBodies());
  app.use('*', httpMetrics(deps.metrics));
  // CORS (preflights answered here, for read paths too) and the security headers on every answer.
  app.use('*', httpSecurity(deps.config));
  app.use('*', rejectInvalidCharacters());
  // Auditors change nothing: their commands are refused here, before any body is read or kept.
  app.use('*', readOnlyRoles(deps.tokens));
  // API tokens: a read token only reads; no token mints tokens or changes its owner's sign-in.
  app.use('*', apiTokenScope(deps.tokens));
  app.use('*', apiTokenLimits(deps.tokens));
  // Profile images are stored as paths and answered as links from PUBLIC_URL (or this request's origin).
  app.use('*', absoluteProfileImages(deps.config));
  // Idempotency-Key: the same request again gets the first answer. Inside the link rewrite,
  // so a replay's profile image links are this request's.
  app.use('*', idempotency(deps));
  app.notFound(notFoundJson);
  // Where write-api runs alone (--only write-api), the operator's routes are its own.
  app.route(
    '/',
    createOpsRoutes({
      metrics: deps.metrics,
      readiness: () => writeReadiness(deps),
      metricsAllow: deps.config.metricsAllow,
    }),
  );
  app.route('/api/auth', createAuthRoutes(deps));
  app.route('/api/auth', createUploadRoutes(deps));
  app.route('/api/auth/mfa', createMfaRoutes(deps));
  app.route('/api/auth/oidc', createOidcRoutes(deps));
  // SMTP and PUBLIC_URL set up: forgot-password mails the link (through the outbox); else it
  // says to ask an admin. A mailed link is built from PUBLIC_URL only: the request's Host is the
  // sender's to choose (reset-link poisoning), so without PUBLIC_URL there is no link to mail.
  const publicUrl = deps.config.publicUrl;
  if (deps.config.smtpUrl && !publicUrl) {
    deps.logger.warn(
      'SMTP_URL is set but PUBLIC_URL is not: forgot-password mails no reset link (links in mail come from PUBLIC_URL only); set PUBLIC_URL, or admins make reset links',
    );
  }
  const resets = deps.config.smtpUrl && publicUrl ? resetMailer(new MailOutbox(deps.pool), publicUrl) : null;
  app.route('/api/auth', createPasswordResetRoutes(deps, resets));
  app.route('/api/users', createPeopleRoutes(deps));
  app.route('/api/users', createUserRoutes(deps));
  app.route('/api/bugs', createBugRoutes(deps));
  // The commands declared once each (commands.ts): route, input, stream, decider, policy, answer.
  for (const { base, commands } of declaredCommands) app.route(base, commandRoutes(deps, commands));
  app.route('/api/tokens', createTokenRoutes(deps));
  app.route('/api/webhooks', createWebhookRoutes(deps));
  app.route('/api/import', createImportRoutes(deps));
  app.route('/api/integrations', createCodeLinkRoutes(deps));
  app.route('/api/notifications', createNotificationRoutes(deps));
  // RFC 8058 one-click unsubscribe: the List-Unsubscribe URI of notification mail (its GET is the web page).
  app.route('/', createOneClickUnsubscribeRoutes(deps));
  // The spec's chat-server paths and /api/chats: the same handlers (and the same declared commands, commands.ts).
  for (const base of ['/api/chats', '/chats']) app.route(base, createChatRoutes(deps));
  return app;
}

/** Ready when both stores a command needs answer: PostgreSQL (credentials, idempotency) and the event store. */
async function writeReadiness(deps: WriteApiDeps): Promise<Readiness> {
  const checks = await Promise.allSettled([deps.pool.query('select 1'), deps.commands.store.headPosition()]);
  const [database, eventStore] = checks.map((check) => (check.status === 'fulfilled' ? 'ok' : 'unreachable'));
  const ready = checks.every((check) => check.status === 'fulfilled');
  return { ready, body: { status: ready ? 'ready' : 'unavailable', database, eventStore } };
}
