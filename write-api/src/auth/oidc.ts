import { createHash, randomBytes } from 'node:crypto';
import { isValidEmail, type SsoErrorCode } from '@bugtrail/domain';
import type { Logger, OidcConfig } from '@bugtrail/platform';
import * as client from 'openid-client';
import type pg from 'pg';

/** How long a sign-in may take at the provider, and how long the app has to trade its one-time code. */
export const oidcLimits = { flowSeconds: 10 * 60, handoffSeconds: 2 * 60, httpTimeoutSeconds: 10 } as const;

/** A refusal the callback turns into /login?sso_error=<code>. */
export class SsoRefused extends Error {
  constructor(
    readonly code: SsoErrorCode,
    detail?: string,
  ) {
    super(detail ?? code);
  }
}

/** What the provider vouched for: a subject and its verified email. */
export type VerifiedIdentity = { subject: string; email: string; name: string | null };

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The relying party of an OpenID Connect login (authorization code with PKCE, state
 * and nonce). openid-client checks the ID token's signature, issuer, audience, expiry
 * and nonce, the state and the issuer of the answer; this class keeps each flow's
 * secrets in `auth.oidc_flows` (one row, used once, for 10 minutes), so any write-api
 * replica can finish a flow another one started. The provider's metadata is fetched
 * on first use and kept; a failed fetch is tried again on the next sign-in.
 */
export class OidcLogin {
  private discovered: Promise<client.Configuration> | null = null;

  constructor(
    private readonly config: OidcConfig,
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    /** Where the provider sends the browser back: PUBLIC_URL (or localhost:PORT) + /api/auth/oidc/callback. */
    readonly redirectUri: string,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** The provider's authorization URL for a new flow, and the state its browser cookie carries. */
  async start(at: Date): Promise<{ url: URL; state: string }> {
    const provider = await this.provider();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    // Flows nobody finished are dropped as new ones begin.
    await this.pool.query('delete from auth.oidc_flows where expires_at <= $1', [at]);
    await this.pool.query(
      `insert into auth.oidc_flows (id_hash, kind, nonce, code_verifier, expires_at) values ($1, 'flow', $2, $3, $4)`,
      [sha256(state), nonce, verifier, new Date(at.getTime() + oidcLimits.flowSeconds * 1000)],
    );
    const url = client.buildAuthorizationUrl(provider, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { url, state };
  }

  /**
   * The provider's answer: `query` is the callback's query string, `cookieState` the
   * state this browser was given at the start. Refuses (SsoRefused) a state that is not
   * this browser's, a flow used or expired, a provider's error and an unverified email.
   */
  async finish(query: URLSearchParams, cookieState: string | undefined, at: Date): Promise<VerifiedIdentity> {
    const state = query.get('state') ?? '';
    if (!cookieState || !state || sha256(cookieState) !== sha256(state)) throw new SsoRefused('state');
    const { rows } = await this.pool.query<{ nonce: string; code_verifier: string; expires_at: Date }>(
      `delete from auth.oidc_flows where id_hash = $1 and kind = 'flow' returning nonce, code_verifier, expires_at`,
      [sha256(state)],
    );
    const flow = rows[0];
    if (!flow || flow.expires_at <= at) throw new SsoRefused('expired');
    if (query.has('error')) throw new SsoRefused('refused', `provider answered ${query.get('error')}`);
    const provider = await this.provider();
    const current = new URL(this.redirectUri);
    current.search = query.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(provider, current, {
        pkceCodeVerifier: flow.code_verifier,
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new SsoRefused('failed', `code exchange: ${(error as Error).message}`);
    }
    const idToken = tokens.claims();
    if (!idToken) throw new SsoRefused('failed', 'no ID token');
    let claims: Record<string, unknown> = { ...idToken };
    // Many providers keep email out of the ID token: the userinfo endpoint has it, for the same subject.
    if (typeof claims.email !== 'string' || claims.email_verified === undefined) {
      try {
        claims = { ...(await client.fetchUserInfo(provider, tokens.access_token, idToken.sub)), ...claims };
      } catch (error) {
        throw new SsoRefused('failed', `userinfo: ${(error as Error).message}`);
      }
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    if (!email || !isValidEmail(email) || !verified) throw new SsoRefused('unverified', `email ${email || 'missing'}`);
    const name = [claims.name, claims.preferred_username, claims.given_name].find(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    );
    return { subject: idToken.sub, email, name: name?.trim() ?? null };
  }

  /** A one-time code the web app trades for a session (POST /api/auth/oidc/finish): no token ever rides in a URL. */
  async handoff(userId: string, at: Date): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await this.pool.query(
      `insert into auth.oidc_flows (id_hash, kind, user_id, expires_at) values ($1, 'handoff', $2, $3)`,
      [sha256(code), userId, new Date(at.getTime() + oidcLimits.handoffSeconds * 1000)],
    );
    return code;
  }

  /** Whose sign-in this code finishes, once; null when it is unknown, used or expired. */
  async redeem(code: string, at: Date): Promise<string | null> {
    const { rows } = await this.pool.query<{ user_id: string; expires_at: Date }>(
      `delete from auth.oidc_flows where id_hash = $1 and kind = 'handoff' returning user_id, expires_at`,
      [sha256(code)],
    );
    const row = rows[0];
    return row && row.expires_at > at ? row.user_id : null;
  }

  private provider(): Promise<client.Configuration> {
    if (!this.discovered) {
      const issuer = new URL(this.config.issuer);
      const discovered = client
        .discovery(issuer, this.config.clientId, this.config.clientSecret, undefined, {
          timeout: oidcLimits.httpTimeoutSeconds,
          // http only reaches a provider on this machine (config.ts refuses any other).
          ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        })
        .then((configuration) => {
          configuration.timeout = oidcLimits.httpTimeoutSeconds;
          return configuration;
        });
      this.discovered = discovered;
      discovered.catch((error: unknown) => {
        this.logger.warn('oidc.discovery_failed', { issuer: this.config.issuer, error: (error as Error).message });
        // Tried again at the next sign-in.
        if (this.discovered === discovered) this.discovered = null;
      });
    }
    return this.discovered.catch((error: unknown) => {
      throw new SsoRefused('failed', `discovery: ${(error as Error).message}`);
    });
  }
}
