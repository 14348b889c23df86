import { http } from './http.js';

/** The admin invite code every test system and product process starts with. */
export const TEST_INVITE_CODE = '246810';

let counter = 0;

export type TestUser = {
  id: string;
  token: string;
  name: string;
  email: string;
  role: 'admin' | 'tester' | 'developer' | 'auditor';
};

/** Registers a user over HTTP and returns its id and token. */
export async function registerUser(
  baseUrl: string,
  role: Exclude<TestUser['role'], 'auditor'>,
  name?: string,
): Promise<TestUser> {
  counter += 1;
  const unique = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${role}.${unique}@example.com`;
  const displayName = name ?? `${role[0]!.toUpperCase()}${role.slice(1)} ${counter}`;
  const answer = await http(baseUrl).post('/api/auth/register', {
    name: displayName,
    email,
    password: 'correct horse battery',
    role,
    ...(role === 'admin' ? { adminInviteToken: TEST_INVITE_CODE } : {}),
  });
  if (answer.status !== 201) throw new Error(`register failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { id: answer.body._id, token: answer.body.token, name: displayName, email, role };
}

/**
 * An auditor: signup never offers the role, so a tester signs up, an admin grants it
 * (PUT /api/users/{id}/role) and the auditor signs in again (the old token is revoked).
 */
export async function registerAuditor(baseUrl: string, adminToken: string, name?: string): Promise<TestUser> {
  const user = await registerUser(baseUrl, 'tester', name ?? `Auditor ${counter + 1}`);
  const api = http(baseUrl);
  const granted = await api.put(`/api/users/${user.id}/role`, { role: 'auditor' }, adminToken);
  if (granted.status !== 200) throw new Error(`role change failed: ${granted.status} ${JSON.stringify(granted.body)}`);
  const login = await api.post('/api/auth/login', { email: user.email, password: 'correct horse battery' });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { ...user, token: login.body.token, role: 'auditor' };
}
