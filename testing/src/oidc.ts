import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type OidcAccount = { email: string; emailVerified: boolean; name?: string };

export type OidcProviderServer = {
  /** The issuer (http://127.0.0.1:PORT): OIDC_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The env that points Bugtrail at it. */
  env: Record<string, string>;
  close(): Promise<void>;
};

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1, with one confidential
 * client whose redirect URI is `redirectUri`. Its development login page takes any login
 * and password: the login is the account id, looked up in `accounts` (an unknown login is a
 * person with that login as a verified email). Then it asks for consent ("Continue").
 */
export async function startOidcProvider(options: {
  redirectUri: string;
  accounts?: Record<string, OidcAccount>;
  name?: string;
}): Promise<OidcProviderServer> {
  const clientId = 'bugtrail-test';
  const clientSecret = 'bugtrail-test-secret-that-is-long-enough-0123456789';
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['bugtrail-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_ctx, id) {
      const account = options.accounts?.[id] ?? { email: id, emailVerified: true };
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: account.email,
            email_verified: account.emailVerified,
            ...(account.name ? { name: account.name } : {}),
          };
        },
      };
    },
  });
  // Its development warnings (dev keys, dev interactions) are the point here, not news.
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_NAME: options.name ?? 'Test IdP',
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A person signing in at that provider, scripted over HTTP (a cookie jar, the development
 * login form, then consent), from its authorization URL until it sends the browser back to
 * `redirectUri`: answers that return URL (its query holds code, state and iss).
 */
export async function signInAtProvider(authorizationUrl: string, redirectUri: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const go = async (url: URL, body?: Record<string, string>) => {
    const answer = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body: new URLSearchParams(body).toString() } : {}),
    });
    for (const line of answer.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return answer;
  };
  let url = new URL(authorizationUrl);
  let answer = await go(url);
  for (let step = 0; step < 20; step++) {
    if (answer.status >= 300 && answer.status < 400) {
      url = new URL(answer.headers.get('location')!, url);
      if (url.href.startsWith(redirectUri)) return url;
      answer = await go(url);
      continue;
    }
    const page = await answer.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (answer.status !== 200 || !action)
      throw new Error(`the provider answered ${answer.status}: ${page.slice(0, 500)}`);
    const form: Record<string, string> = page.includes('name="login"')
      ? { prompt: 'login', login, password: 'any password' }
      : { prompt: 'consent' };
    url = new URL(action.replaceAll('&amp;', '&'), url);
    answer = await go(url, form);
  }
  throw new Error('the provider never sent the browser back');
}
