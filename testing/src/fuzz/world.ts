/**
 * The small world the fuzzer plays in, seeded through the API itself: two users of each
 * role (A and B, for per-object checks), bugs tester A reported for developer A (and B's
 * for B), chats of every type with messages, an uploaded image. While the fuzz runs,
 * every answer that shows an object updates what the world knows of it (who reported a
 * bug, who is assigned, who is in a chat), so the generator draws ids that exist and the
 * permission oracle can tell whose object a request touched.
 */
import { callJson, type HttpClient } from './client.js';
import { multipartBody, SAMPLE_IMAGES } from './samples.js';

export type PrincipalName = 'admin' | 'admin2' | 'tester' | 'tester2' | 'developer' | 'developer2';
export type Caller = PrincipalName | 'anonymous' | 'intruder';
export const PRINCIPALS: readonly PrincipalName[] = ['admin', 'admin2', 'tester', 'tester2', 'developer', 'developer2'];

export type Principal = {
  name: PrincipalName;
  role: 'admin' | 'tester' | 'developer';
  id: string;
  email: string;
  password: string;
  token: string;
  /** A re-login under way (after a logout or a password change revoked the token). */
  relogin: Promise<void> | null;
};

export type BugRecord = {
  id: string;
  creatorId: string;
  assigneeIds: Set<string>;
  deleted: boolean;
  version: number;
  itemIds: string[];
  seeded: boolean;
  /** Answers about it crossed (concurrent changes): its assignees are not known for sure. */
  uncertain: boolean;
};

export type ChatRecord = {
  id: string;
  type: string;
  participantIds: Set<string>;
  adminIds: Set<string>;
  deleted: boolean;
  seeded: boolean;
  /** Answers about it crossed (concurrent changes): its members and admins are not known for sure. */
  uncertain: boolean;
};

export type MessageRecord = { id: string; chatId: string; senderId: string; deleted: boolean };
export type UserRecord = { id: string; role: string; email: string };

export const PASSWORDS = ['correct horse battery', 'another long passphrase', 'Tr0ub4dor&3-but-longer'];

let uniqueCounter = 0;
export const uniqueEmail = (tag = 'fuzz') =>
  `${tag}.${Date.now().toString(36)}${(uniqueCounter++).toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** Which objects requests are changing right now: per-object checks that depend on mutable state need quiet. */
class Activity {
  private readonly inflight = new Map<string, number>();
  private readonly versions = new Map<string, number>();
  begin(ids: readonly string[], isMutation: boolean) {
    const snapshot = ids.map((id) => ({
      id,
      inflight: this.inflight.get(id) ?? 0,
      version: this.versions.get(id) ?? 0,
    }));
    if (isMutation) for (const id of ids) this.bump(id, +1);
    return { snapshot, isMutation };
  }
  end(ticket: ReturnType<Activity['begin']>) {
    if (ticket.isMutation) for (const { id } of ticket.snapshot) this.bump(id, -1);
  }
  /** True when no other request changed `id` while this one ran (call before `end`). */
  isQuiet(ticket: ReturnType<Activity['begin']>, id: string): boolean {
    const before = ticket.snapshot.find((s) => s.id === id);
    if (!before) return (this.inflight.get(id) ?? 0) === 0;
    const own = ticket.isMutation ? 1 : 0;
    return before.inflight === 0 && (this.versions.get(id) ?? 0) - before.version === own;
  }
  private bump(id: string, delta: number) {
    this.inflight.set(id, (this.inflight.get(id) ?? 0) + delta);
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
  }
}
export type ActivityTicket = ReturnType<Activity['begin']>;

export class World {
  readonly principals = new Map<PrincipalName, Principal>();
  readonly users = new Map<string, UserRecord>();
  readonly bugs = new Map<string, BugRecord>();
  readonly chats = new Map<string, ChatRecord>();
  readonly messages = new Map<string, MessageRecord>();
  readonly images: string[] = [];
  /** Links the server handed out (upload URLs, signed attachment paths), as paths with their query. */
  readonly links: string[] = [];
  readonly cursors: string[] = [];
  readonly positions: string[] = [];
  readonly inviteCodes: string[] = [];
  /** Tokens that must not work: a logged-out user's, forged ones, garbage. */
  readonly badAuthorizations: string[] = [];
  readonly activity = new Activity();
  relogins = 0;

  constructor(
    private readonly client: HttpClient,
    readonly inviteCode: string,
  ) {}

  principal(name: PrincipalName): Principal {
    return this.principals.get(name)!;
  }

  principalById(id: string): Principal | undefined {
    for (const p of this.principals.values()) if (p.id === id) return p;
    return undefined;
  }

  userIds(role?: string): string[] {
    const ids: string[] = [];
    for (const u of this.users.values()) if (!role || u.role === role) ids.push(u.id);
    return ids;
  }

  liveBugs(): BugRecord[] {
    return [...this.bugs.values()].filter((b) => !b.deleted);
  }

  liveChats(): ChatRecord[] {
    return [...this.chats.values()].filter((c) => !c.deleted);
  }

  /** Registers, seeds and remembers everything the fuzz starts from. */
  static async seed(client: HttpClient, inviteCode: string): Promise<World> {
    const world = new World(client, inviteCode);
    const register = async (name: PrincipalName, role: Principal['role']) => {
      const email = uniqueEmail(name);
      const password = PASSWORDS[0]!;
      const answer = await callJson(client, 'POST', '/api/auth/register', {
        body: {
          name: `${name[0]!.toUpperCase()}${name.slice(1)} Fuzz`,
          email,
          password,
          role,
          ...(role === 'admin' ? { adminInviteToken: inviteCode } : {}),
        },
        expect: 201,
      });
      world.principals.set(name, {
        name,
        role,
        id: answer.body._id,
        email,
        password,
        token: answer.body.token,
        relogin: null,
      });
      world.users.set(answer.body._id, { id: answer.body._id, role, email });
    };
    for (const name of PRINCIPALS) await register(name, name.replace(/2$/, '') as Principal['role']);
    const p = (name: PrincipalName) => world.principal(name);

    // Authorizations that must all be 401: a logged-out user's token, forged and garbage ones.
    const gone = await callJson(client, 'POST', '/api/auth/register', {
      body: { name: 'Gone Fuzz', email: uniqueEmail('gone'), password: PASSWORDS[0], role: 'tester' },
      expect: 201,
    });
    await callJson(client, 'POST', '/api/auth/logout', { token: gone.body.token, expect: 200 });
    const [header, , signature] = String(p('tester').token).split('.');
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const adminClaims = { sub: p('admin').id, id: p('admin').id, role: 'admin', exp: 4102444800 };
    world.badAuthorizations.push(
      `Bearer ${gone.body.token}`,
      `Bearer ${header}.${b64(adminClaims)}.${signature}`,
      `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(adminClaims)}.`,
      'Bearer not-a-token',
      'Bearer ',
      `Basic ${Buffer.from(`${p('admin').email}:${PASSWORDS[0]}`).toString('base64')}`,
      p('admin').token,
    );

    const image = await client.send(
      multipartBody('POST', '/api/auth/upload-image', [{ name: 'image', ...SAMPLE_IMAGES[0]! }]),
    );
    if (image.status === 201) world.images.push(JSON.parse(image.text ?? '{}').imageURL);

    const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const report = async (by: PrincipalName, assignees: PrincipalName[], title: string) => {
      const answer = await callJson(client, 'POST', '/api/bugs', {
        token: p(by).token,
        body: {
          title,
          description: `${title}: steps to reproduce, expected and actual results.`,
          priority: 'High',
          severity: 'Major',
          module: 'fuzz',
          dueDate,
          assignedTo: assignees.map((a) => p(a).id),
          checklist: ['Reproduce it', 'Write a test'],
          attachments: ['https://example.com/screenshot.png'],
        },
        expect: 201,
      });
      world.noteBug(answer.body.bug, { certain: true, seeded: true });
      return answer.body.bug._id as string;
    };
    for (let i = 1; i <= 3; i++) await report('tester', ['developer'], `Tester A bug number ${i}`);
    for (let i = 1; i <= 2; i++) await report('tester2', ['developer2'], `Tester B bug number ${i}`);
    await report('admin', ['developer', 'developer2'], 'Admin bug for both developers');
    const deleted = await report('tester', ['developer'], 'Tester A bug that is deleted');
    await callJson(client, 'DELETE', `/api/bugs/${deleted}`, { token: p('tester').token, expect: 200 });
    world.bugs.get(deleted)!.deleted = true;

    const chat = async (by: PrincipalName, type: string, members: PrincipalName[]) => {
      const answer = await callJson(client, 'POST', '/api/chats', {
        token: p(by).token,
        body: { name: `${type} chat of ${by}`, type, participants: members.map((m) => p(m).id) },
        expect: 201,
      });
      world.noteChat(answer.body, { certain: true, seeded: true });
      const id = answer.body._id as string;
      for (const sender of [by, ...members]) {
        const message = await callJson(client, 'POST', `/api/chats/${id}/messages`, {
          token: p(sender).token,
          body: { content: `Hello from ${sender}`, mentions: [p(by).id] },
        });
        if (message.status === 201) world.noteMessage(message.body);
      }
      return id;
    };
    const privateChat = await chat('tester', 'private', ['developer']);
    await chat('admin', 'team', ['tester2', 'developer2']);
    await chat('admin2', 'public', []);
    await chat('developer', 'ai_assistant', []);
    const withFile = await client.send(
      multipartBody(
        'POST',
        `/api/chats/${privateChat}/messages`,
        [
          { name: 'content', value: 'A screenshot' },
          { name: 'attachments', ...SAMPLE_IMAGES[1]! },
        ],
        { authorization: `Bearer ${p('developer').token}` },
      ),
    );
    if (withFile.status === 201) world.noteMessage(JSON.parse(withFile.text ?? '{}'));

    const page = await callJson(client, 'GET', '/api/bugs?limit=1', { token: p('admin').token, expect: 200 });
    if (page.body.nextCursor) world.cursors.push(page.body.nextCursor);
    return world;
  }

  /**
   * What an answer that shows a bug says about it. An answer is `certain` when no other request
   * changed the bug while it ran: otherwise answers may arrive out of order, and the bug's
   * mutable facts (assignees) are unknown until a quiet answer shows them again.
   */
  noteBug(bug: any, options: { certain: boolean; seeded?: boolean }) {
    if (!bug || typeof bug._id !== 'string' || !bug.createdBy) return;
    const known = this.bugs.get(bug._id);
    if (known && !options.certain) {
      known.uncertain = true;
      return;
    }
    this.bugs.set(bug._id, {
      id: bug._id,
      creatorId: bug.createdBy._id,
      assigneeIds: new Set((bug.assignedTo ?? []).map((u: { _id: string }) => u._id)),
      deleted: known?.deleted ?? false,
      version: typeof bug.version === 'number' ? bug.version : (known?.version ?? 0),
      itemIds: Array.isArray(bug.checklist) ? bug.checklist.map((i: { _id: string }) => i._id) : (known?.itemIds ?? []),
      seeded: known?.seeded ?? options.seeded ?? false,
      uncertain: !options.certain,
    });
  }

  /** What an answer that shows a chat says about it (members and admins: see `noteBug` on certainty). */
  noteChat(chat: any, options: { certain: boolean; seeded?: boolean }) {
    if (!chat || typeof chat._id !== 'string' || !Array.isArray(chat.participants)) return;
    const known = this.chats.get(chat._id);
    if (known && !options.certain) {
      known.uncertain = true;
      return;
    }
    this.chats.set(chat._id, {
      id: chat._id,
      type: chat.type,
      participantIds: new Set(chat.participants.map((u: { _id: string }) => u._id)),
      adminIds: new Set((chat.admins ?? []).map((u: { _id: string }) => u._id)),
      deleted: known?.deleted ?? false,
      seeded: known?.seeded ?? options.seeded ?? false,
      uncertain: !options.certain,
    });
  }

  noteMessage(message: any) {
    if (!message || typeof message._id !== 'string' || typeof message.chat !== 'string') return;
    this.messages.set(message._id, {
      id: message._id,
      chatId: message.chat,
      senderId: message.sender?._id,
      deleted: message.isDeleted === true,
    });
  }

  remember<T>(list: T[], value: T, max = 50) {
    if (list.includes(value)) return;
    list.push(value);
    if (list.length > max) list.splice(0, list.length - max);
  }

  /**
   * Logs a principal in again (after its tokens were revoked). When the world lost track of
   * its e-mail or password (answers crossed), an admin gives it a fresh e-mail and its password
   * back; a login that lands on another account (someone took the old e-mail) is never used.
   */
  refresh(principal: Principal): Promise<void> {
    principal.relogin ??= (async () => {
      this.relogins++;
      const login = async () => {
        const answer = await callJson(this.client, 'POST', '/api/auth/login', {
          body: { email: principal.email, password: principal.password },
        });
        return answer.status === 200 && answer.body?._id === principal.id ? (answer.body.token as string) : null;
      };
      let token = await login();
      if (!token) {
        const fixer = principal.name === 'admin' ? this.principal('admin2') : this.principal('admin');
        const email = uniqueEmail(principal.name);
        const repaired = await callJson(this.client, 'PUT', `/api/users/${principal.id}`, {
          token: fixer.token,
          body: { email, password: principal.password },
        });
        if (repaired.status === 200) principal.email = email;
        token = await login();
      }
      if (token) principal.token = token;
    })().finally(() => {
      principal.relogin = null;
    });
    return principal.relogin;
  }
}
