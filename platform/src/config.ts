import os from 'node:os';
import path from 'node:path';
import type { SpoolConfig } from './http/spool.js';

/** Everything the servers read from the environment, in one place (README lists it). */
export type Config = Readonly<{
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** A hot standby of DATABASE_URL's server that read-api reads the read models from (ADR 022). */
  readDatabaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string | undefined;
  adminInviteCode: string | undefined;
  eventstoreConnectionString: string | undefined;
  /** How long a command waits for the read models to pass its events. */
  readYourWritesTimeoutMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * How many proxies stand in front (TRUST_PROXY): the client address is the N-th
   * X-Forwarded-For entry from the right, the scheme the proxy's X-Forwarded-Proto; 0 is none.
   */
  trustProxy: number;
  /** Socket addresses and CIDRs besides loopback that may read /metrics (METRICS_ALLOW). */
  metricsAllow: readonly string[];
  /** Origins allowed to call the API from a browser: '*' (any) or a list. */
  corsOrigins: '*' | readonly string[];
  /** The origin links to uploaded files are built from (else the request's own origin). */
  publicUrl: string | undefined;
  /** Where mail goes (smtp:// or smtps://, credentials in the URL); none: nothing is mailed. */
  smtpUrl: string | undefined;
  /** The From of every mail. */
  mailFrom: string;
  /**
   * Single sign-on through an OpenID provider (OIDC_ISSUER, OIDC_CLIENT_ID,
   * OIDC_CLIENT_SECRET; OIDC_NAME labels the login button). Absent: password login only.
   */
  oidc: OidcConfig | undefined;
  /** The chat assistant's providers and limits (AI_*, ANTHROPIC_*; README lists them). */
  ai: AiConfig;
  /** Outgoing webhooks (WEBHOOK_*; README lists them). */
  webhooks: WebhookConfig;
  /**
   * Code hosts whose webhooks link commits and pull requests to bugs (GITHUB_WEBHOOK_SECRET,
   * GITLAB_WEBHOOK_SECRET): an integration without its secret is off.
   */
  codeHosts: Readonly<{ githubSecret: string | undefined; gitlabSecret: string | undefined }>;
  /** The IANA zone an import reads times without an offset in (IMPORT_TIMEZONE; docs/import.md). */
  importTimeZone: string;
  /** Where request bodies too large for memory are written while they stream in (SPOOL_*; README lists them). */
  spool: SpoolConfig;
  /** Secret that signs chat attachment links (else one generated and kept in the database). */
  uploadsSigningSecret: string | undefined;
  /** Key material for TOTP secrets at rest (else one generated and kept in the database, apart from them). */
  mfaEncryptionKey: string | undefined;
  rateLimits: Readonly<{
    failedLoginsPerAccount: number;
    failedLoginsPerIp: number;
    wrongInviteCodesPerIp: number;
    /** Wrong invite codes from all addresses together per window: many addresses cannot add up to a search of the codes. */
    wrongInviteCodesTotal: number;
    anonymousUploadsPerIp: number;
    windowSeconds: number;
    /** Forgot-password mails per address, and requests per client address, per hour. */
    forgotMailsPerAccount: number;
    forgotMailsPerIp: number;
    sseConnectionsPerUser: number;
  }>;
}>;

export type AiConfig = Readonly<{
  /** Any OpenAI-compatible chat-completions endpoint (AI_BASE_URL + AI_API_KEY, AI_MODEL its default model). */
  openai: Readonly<{ baseUrl: string; apiKey: string; model: string | undefined }> | undefined;
  /** Anthropic's Messages API (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL). */
  anthropic: Readonly<{ baseUrl: string; apiKey: string }> | undefined;
  /** How many of the chat's latest messages the model reads (AI_CONTEXT_MESSAGES). */
  contextMessages: number;
  /** A whole answer's time limit, retries included (AI_TIMEOUT_MS). */
  timeoutMs: number;
  /** Tokens (in and out) one person's questions may use a day (AI_DAILY_TOKENS_PER_USER; 0: no limit). */
  dailyTokensPerUser: number;
}>;

export type WebhookConfig = Readonly<{
  /** Host names, addresses and CIDRs a webhook may reach although they are not public (WEBHOOK_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  /** The first retry's wait; each next one doubles it (WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Events in a row whose attempts all failed before a webhook is switched off (WEBHOOK_DISABLE_AFTER). */
  disableAfter: number;
}>;

export type OidcConfig = Readonly<{ issuer: string; clientId: string; clientSecret: string; name: string }>;

function int(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

/** TRUST_PROXY: a number of proxies; `true`/`yes`/`on` is one, unset/`false`/`no`/`off` none. */
export function proxyHops(value: string | undefined): number {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false' || text === 'no' || text === 'off') return 0;
  if (text === 'true' || text === 'yes' || text === 'on') return 1;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  throw new Error(`TRUST_PROXY must be the number of proxies in front (0–99), true or false, not "${value}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const level = env.LOG_LEVEL;
  return {
    port: int(env.PORT, 8000),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    readDatabaseUrl: env.READ_DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    jwtSecret: env.JWT_SECRET || undefined,
    adminInviteCode: env.ADMIN_INVITE_CODE || undefined,
    eventstoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || undefined,
    readYourWritesTimeoutMs: int(env.READ_YOUR_WRITES_TIMEOUT_MS, 2000),
    logLevel: level === 'debug' || level === 'warn' || level === 'error' || level === 'silent' ? level : 'info',
    trustProxy: proxyHops(env.TRUST_PROXY),
    metricsAllow: (env.METRICS_ALLOW ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    publicUrl: publicUrl(env.PUBLIC_URL),
    uploadsSigningSecret: env.UPLOADS_SIGNING_SECRET || undefined,
    mfaEncryptionKey: mfaEncryptionKey(env.MFA_ENCRYPTION_KEY),
    importTimeZone: importTimeZone(env.IMPORT_TIMEZONE),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || 'Bugtrail <no-reply@bugtrail.localhost>',
    oidc: oidc(env),
    ai: aiConfig(env),
    webhooks: {
      allowHosts: (env.WEBHOOK_ALLOW_HOSTS ?? '')
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
      retryBaseMs: Math.max(1, int(env.WEBHOOK_RETRY_BASE_MS, 5000)),
      disableAfter: Math.max(1, int(env.WEBHOOK_DISABLE_AFTER, 20)),
    },
    spool: spoolConfig(env),
    codeHosts: {
      githubSecret: env.GITHUB_WEBHOOK_SECRET || undefined,
      gitlabSecret: env.GITLAB_WEBHOOK_SECRET || undefined,
    },
    rateLimits: {
      failedLoginsPerAccount: int(env.RATE_LIMIT_LOGIN_PER_ACCOUNT, 10),
      failedLoginsPerIp: int(env.RATE_LIMIT_LOGIN_PER_IP, 100),
      wrongInviteCodesPerIp: int(env.RATE_LIMIT_INVITE_PER_IP, 10),
      wrongInviteCodesTotal: int(env.RATE_LIMIT_INVITE_TOTAL, 30),
      anonymousUploadsPerIp: int(env.RATE_LIMIT_UPLOADS_PER_IP, 30),
      windowSeconds: int(env.RATE_LIMIT_WINDOW_SECONDS, 15 * 60),
      forgotMailsPerAccount: int(env.RATE_LIMIT_FORGOT_PER_ACCOUNT, 3),
      forgotMailsPerIp: int(env.RATE_LIMIT_FORGOT_PER_IP, 20),
      sseConnectionsPerUser: int(env.SSE_CONNECTIONS_PER_USER, 20),
    },
  };
}

/** SPOOL_*: the folder, and what may sit in it at once (sizes in MB; README lists them). */
function spoolConfig(env: NodeJS.ProcessEnv): SpoolConfig {
  const mb = (value: string | undefined, fallback: number) => Math.max(0, int(value, fallback)) * 1024 * 1024;
  return {
    dir: path.resolve(env.SPOOL_DIR || os.tmpdir()),
    // One import (200 MB) or two full chat messages (2 × 101 MB) per person at once.
    perUserBytes: mb(env.SPOOL_MAX_PER_USER_MB, 256),
    perAddressBytes: mb(env.SPOOL_MAX_PER_ADDRESS_MB, 512),
    minFreeBytes: mb(env.SPOOL_MIN_FREE_MB, 1024),
  };
}

function aiConfig(env: NodeJS.ProcessEnv): AiConfig {
  const baseUrl = env.AI_BASE_URL?.trim();
  const apiKey = env.AI_API_KEY?.trim();
  const anthropicKey = env.ANTHROPIC_API_KEY?.trim();
  for (const [name, value] of [
    ['AI_BASE_URL', baseUrl],
    ['ANTHROPIC_BASE_URL', env.ANTHROPIC_BASE_URL?.trim()],
  ] as const) {
    if (value && !/^https?:\/\//.test(value)) throw new Error(`${name} must be an http(s) URL`);
  }
  return {
    openai:
      baseUrl && apiKey
        ? { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, model: env.AI_MODEL?.trim() || undefined }
        : undefined,
    anthropic: anthropicKey
      ? {
          baseUrl: (env.ANTHROPIC_BASE_URL?.trim() || 'https://api.anthropic.com').replace(/\/+$/, ''),
          apiKey: anthropicKey,
        }
      : undefined,
    contextMessages: Math.max(1, Math.min(200, int(env.AI_CONTEXT_MESSAGES, 20))),
    timeoutMs: Math.max(1000, int(env.AI_TIMEOUT_MS, 60_000)),
    dailyTokensPerUser: Math.max(0, int(env.AI_DAILY_TOKENS_PER_USER, 200_000)),
  };
}

/**
 * OIDC_* as a whole or not at all: half a configuration stops the start rather than
 * showing a button that cannot work. The issuer must be https, except on this machine
 * (a provider on loopback, as in the tests).
 */
function oidc(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET ?? '';
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret) {
    throw new Error('Single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together');
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`OIDC_ISSUER must be an absolute URL, got "${issuer}"`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new Error('OIDC_ISSUER must be an https URL (http only for a provider on this machine)');
  }
  return { issuer, clientId, clientSecret, name: env.OIDC_NAME?.trim() || 'single sign-on' };
}

/** SMTP_URL as given; a value that is not an smtp(s) URL stops the start. */
function smtpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  return value;
}

function corsOrigins(value: string | undefined): '*' | readonly string[] {
  const list = (value ?? '*')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return list.length === 0 || list.includes('*') ? '*' : list;
}

/** IMPORT_TIMEZONE as an IANA zone (default UTC); one the runtime does not know stops the start. */
function importTimeZone(value: string | undefined): string {
  const zone = value?.trim() || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new Error(`IMPORT_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "${zone}"`);
  }
  return zone;
}

/** PUBLIC_URL as an origin plus optional path prefix, without a trailing slash; a bad value stops the start. */
function publicUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PUBLIC_URL must be an http(s) URL');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** MFA_ENCRYPTION_KEY as given; shorter than 32 characters stops the start (it would be guessable). */
function mfaEncryptionKey(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 32) throw new Error('MFA_ENCRYPTION_KEY must be at least 32 characters');
  return value;
}
