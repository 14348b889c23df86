import path from 'node:path';

/** Everything the servers read from the environment, in one place (README lists it). */
export type Config = Readonly<{
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string | undefined;
  adminInviteCode: string | undefined;
  eventstoreConnectionString: string | undefined;
  /** How long a command waits for the read models to pass its events. */
  readYourWritesTimeoutMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  rateLimits: Readonly<{
    failedLoginsPerAccount: number;
    failedLoginsPerIp: number;
    wrongInviteCodesPerIp: number;
    anonymousUploadsPerIp: number;
    windowSeconds: number;
    sseConnectionsPerUser: number;
  }>;
}>;

function int(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const level = env.LOG_LEVEL;
  return {
    port: int(env.PORT, 8000),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    jwtSecret: env.JWT_SECRET || undefined,
    adminInviteCode: env.ADMIN_INVITE_CODE || undefined,
    eventstoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || undefined,
    readYourWritesTimeoutMs: int(env.READ_YOUR_WRITES_TIMEOUT_MS, 2000),
    logLevel: level === 'debug' || level === 'warn' || level === 'error' || level === 'silent' ? level : 'info',
    rateLimits: {
      failedLoginsPerAccount: int(env.RATE_LIMIT_LOGIN_PER_ACCOUNT, 10),
      failedLoginsPerIp: int(env.RATE_LIMIT_LOGIN_PER_IP, 100),
      wrongInviteCodesPerIp: int(env.RATE_LIMIT_INVITE_PER_IP, 10),
      anonymousUploadsPerIp: int(env.RATE_LIMIT_UPLOADS_PER_IP, 30),
      windowSeconds: int(env.RATE_LIMIT_WINDOW_SECONDS, 15 * 60),
      sseConnectionsPerUser: int(env.SSE_CONNECTIONS_PER_USER, 20),
    },
  };
}
