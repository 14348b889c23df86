/**
 * What every answer must satisfy:
 * 1. no 5xx (other than one the operation documents, such as /ready's 503);
 * 2. its status is documented for the operation, and its body validates against the
 *    documented JSON schema (errors `{ message, details? }`, also under an undocumented
 *    status), with the documented media type (`application/octet-stream`: any binary);
 * 3. no success the permission table forbids: the operation's `Roles:` (with `own` and
 *    `assigned` read from the bug the answer shows or the world knows) and api.md's
 *    "Who sees what" (scoped lists, rows only for testers, chats for their members only,
 *    e-mail addresses for admins and their owner, 401 without a valid token); and where
 *    the table names the refusal (403 for a role left out, for another tester's bug), that
 *    refusal.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { FuzzRequest } from './arbitraries.js';
import type { RawAnswer } from './client.js';
import type { OpenApiModel } from './openapi-model.js';
import type { ActivityTicket, PrincipalName, World } from './world.js';
import { PRINCIPALS } from './world.js';

export type FindingKind = 'server-error' | 'schema' | 'undocumented-status' | 'permission' | 'transport';

export type Finding = {
  kind: FindingKind;
  operation: string;
  caller: string;
  mode: string;
  status: number;
  /** What went wrong, in one line. */
  detail: string;
  /** Groups repeats of the same finding. */
  key: string;
};

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin;

export class SchemaChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(model: OpenApiModel) {
    addFormats(this.ajv);
    this.ajv.addSchema(model.document as object, 'openapi');
  }

  /** The first error of `value` against the schema at `pointer`, or null when it validates. */
  check(pointer: string, value: unknown): string | null {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(`openapi#${pointer}`) as ValidateFunction | undefined;
      if (!validate) throw new Error(`no schema at ${pointer}`);
      this.validators.set(pointer, validate);
    }
    if (validate(value)) return null;
    const error = validate.errors?.[0];
    if (!error) return 'invalid';
    const extra =
      error.params && 'additionalProperty' in error.params ? ` "${String(error.params.additionalProperty)}"` : '';
    return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
  }
}

export const ERROR_POINTER = '/components/schemas/Error';

/** Numbers and ids out of a JSON path, so one schema break in a list is one finding. */
const generalise = (text: string) =>
  text
    .replace(/\/\d+(?=\/|\s|$)/g, '/*')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}');

export type Judged = { answer: RawAnswer; json: unknown; isJson: boolean };

export function parseAnswer(answer: RawAnswer): Judged {
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.text === null || !/json/i.test(type)) return { answer, json: undefined, isJson: false };
  try {
    return { answer, json: answer.text === '' ? undefined : JSON.parse(answer.text), isJson: true };
  } catch {
    return { answer, json: undefined, isJson: false };
  }
}

/** Oracles 1 and 2: status documented, body in its schema, no 5xx. */
export function checkSchema(request: FuzzRequest, judged: Judged, schemas: SchemaChecker): Finding[] {
  const { operation: op } = request;
  const { answer } = judged;
  const status = answer.status;
  const findings: Finding[] = [];
  const base = { operation: op.id, caller: request.caller, mode: request.mode, status };
  const documented = op.answers.get(status);
  const type = String(answer.headers['content-type'] ?? '');
  if (status >= 500 && !documented) {
    findings.push({
      ...base,
      kind: 'server-error',
      detail: `${status}: ${(answer.text ?? '').slice(0, 160)}`,
      key: `server-error ${op.id} ${status} ${generalise((answer.text ?? '').slice(0, 80))}`,
    });
  }
  if (!documented) {
    if (status < 500) {
      // One finding per status and message, whichever operations answer it (a middleware's answer is one gap).
      const message = String(
        (judged.json as { message?: unknown } | undefined)?.message ?? (answer.text ?? '').slice(0, 80),
      );
      findings.push({
        ...base,
        kind: 'undocumented-status',
        detail: `${status} ${JSON.stringify(message)} is not a documented answer`,
        key: `undocumented ${status} ${generalise(message).replace(/\d+/g, 'N')}`,
      });
    }
    // Whatever the status, an error is still `{ message, details? }` in JSON.
    if (status >= 400) {
      const problem = !judged.isJson
        ? `not JSON (${type || 'no content-type'})`
        : schemas.check(ERROR_POINTER, judged.json);
      if (problem) {
        findings.push({
          ...base,
          kind: 'schema',
          detail: `${status} error body: ${problem}`,
          key: `schema ${op.id} ${status} ${generalise(problem)}`,
        });
      }
    }
    return findings;
  }
  if (documented.schemaPointer) {
    const problem = !judged.isJson
      ? `not JSON (${type || 'no content-type'})`
      : schemas.check(documented.schemaPointer, judged.json);
    if (problem) {
      findings.push({
        ...base,
        kind: 'schema',
        detail: problem,
        key: `schema ${op.id} ${status} ${generalise(problem)}`,
      });
    }
  } else if (
    documented.contentType &&
    !/^(\*\/\*|application\/octet-stream)$/i.test(documented.contentType) &&
    !documented.contentTypes.some((t) => type.toLowerCase().startsWith(t.toLowerCase()))
  ) {
    findings.push({
      ...base,
      kind: 'schema',
      detail: `content-type ${type || '(none)'}, documented ${documented.contentType}`,
      key: `schema ${op.id} ${status} content-type ${type}`,
    });
  }
  return findings;
}

type Bug = { _id: string; createdBy?: { _id: string }; assignedTo?: Array<{ _id: string }>; [key: string]: unknown };
type Chat = { _id: string; type: string; participants: Array<{ _id: string }> };

export type PermissionContext = {
  world: World;
  ticket: ActivityTicket;
  /** Bugs and messages deleted before the request started. */
  deletedBefore: ReadonlySet<string>;
  /** The answer replays an earlier one (Idempotency-Key): per-object state then may have moved on. */
  isReplay: boolean;
};

/**
 * The status api.md's table prescribes for a refused, otherwise valid request without a
 * body: 403 for a role the operation's `Roles:` leave out (on an object that exists), for a
 * tester's look at a bug someone else reported or at someone else's list, for a developer's
 * look at a bug not assigned to them. Null when the table does not say.
 */
function expectedDenial(
  request: FuzzRequest,
  me: { id: string; role: string },
  ctx: PermissionContext,
  quiet: (id: string) => boolean,
): number | null {
  const op = request.operation;
  // A stale If-Match may be refused first (409); a key reused may be refused first (422).
  const headers = request.headers;
  if (request.mode !== 'valid' || op.body || headers['Idempotency-Key'] || headers['If-Match'] || ctx.isReplay)
    return null;
  const ids = Object.values(request.pathParams);
  const isLive = (id: unknown) => {
    if (typeof id !== 'string' || ctx.deletedBefore.has(id)) return false;
    const bug = ctx.world.bugs.get(id);
    return bug ? !bug.deleted : ctx.world.users.has(id);
  };
  // Only about objects nobody changed meanwhile (one deleted under the request is a fair 404).
  if (op.roles && !op.roles.some((r) => r.role === me.role) && ids.every((id) => isLive(id) && quiet(String(id)))) {
    return 403;
  }
  const id = request.pathParams.id;
  if (typeof id !== 'string') return null;
  const route = `${op.method} ${op.path}`;
  if (route === 'get /api/bugs/user/{id}' && me.role === 'tester' && id !== me.id) return 403;
  if (route === 'get /api/bugs/{id}' || route === 'get /api/bugs/{id}/history') {
    // Seeded bugs are never deleted: their reporter is fixed, their assignees known when quiet.
    const bug = ctx.world.bugs.get(id);
    if (!bug?.seeded || bug.deleted) return null;
    if (me.role === 'tester' && bug.creatorId !== me.id) return 403;
    if (me.role === 'developer' && quiet(id) && !bug.assigneeIds.has(me.id)) return 403;
  }
  return null;
}

/** Oracle 3: a success the permission table forbids. Returns the broken rule, or null. */
export function checkPermission(request: FuzzRequest, judged: Judged, ctx: PermissionContext): string | null {
  const { operation: op, caller } = request;
  const status = judged.answer.status;
  const isSuccess = status >= 200 && status < 300;
  const isSignedIn = PRINCIPALS.includes(caller as PrincipalName);
  if (op.auth && !isSignedIn) {
    if (isSuccess) return `${caller} got ${status} on an operation that needs a token`;
    const plain = request.mode === 'valid' && !request.headers['Idempotency-Key'];
    if (plain && status !== 401) return `${caller} got ${status}, not 401, without a valid token`;
    return null;
  }
  if (!isSignedIn) return null;
  const me = ctx.world.principal(caller as PrincipalName);
  const json = judged.json as any;
  const id = typeof request.pathParams.id === 'string' ? request.pathParams.id : null;
  // Mutable facts (assignees, members, admins) count only when nobody changed the object meanwhile.
  const quiet = (objectId: string) =>
    !ctx.isReplay &&
    ctx.world.activity.isQuiet(ctx.ticket, objectId) &&
    !ctx.world.bugs.get(objectId)?.uncertain &&
    !ctx.world.chats.get(objectId)?.uncertain;
  if (!isSuccess) {
    // A refusal the table spells out must be that refusal (a token revoked meanwhile may make it 401).
    const expected = expectedDenial(request, me, ctx, quiet);
    return expected && status !== expected && status !== 401
      ? `${me.role} got ${status} where the permission table says ${expected}`
      : null;
  }

  // The operation's own `Roles:` line, qualifiers included.
  if (op.roles) {
    const rule = op.roles.find((r) => r.role === me.role);
    if (!rule) return `${me.role} is not among the roles (${op.roles.map((r) => r.role).join(', ')})`;
    const bug: Bug | undefined = json?.bug ?? (id ? undefined : undefined);
    if (rule.qualifiers.includes('own')) {
      const creator = bug?.createdBy?._id ?? (id ? ctx.world.bugs.get(id)?.creatorId : undefined);
      if (creator !== undefined && creator !== me.id) return `${me.role} changed a bug they did not report`;
    }
    if (rule.qualifiers.includes('assigned')) {
      if (bug?.assignedTo) {
        if (!bug.assignedTo.some((u) => u._id === me.id)) return `${me.role} changed a bug not assigned to them`;
      } else if (id && quiet(id)) {
        const known = ctx.world.bugs.get(id);
        if (known && !known.assigneeIds.has(me.id)) return `${me.role} changed a bug not assigned to them`;
      }
    }
  }

  const route = `${op.method.toUpperCase()} ${op.path.replace(/^\/api(?=\/chats)/, '')}`;
  const inScope = (bug: Bug) =>
    me.role === 'admin' ||
    (me.role === 'tester' ? bug.createdBy?._id === me.id : (bug.assignedTo ?? []).some((u) => u._id === me.id));
  const outOfScope = (bugs: unknown) =>
    Array.isArray(bugs) ? (bugs as Bug[]).find((b) => b && typeof b === 'object' && !inScope(b)) : undefined;
  const chatVisible = (chatId: string) => {
    const chat = ctx.world.chats.get(chatId);
    if (!chat || chat.type === 'public' || !quiet(chatId)) return true;
    return chat.participantIds.has(me.id);
  };

  switch (route) {
    case 'GET /api/bugs':
    case 'GET /api/bugs/admin-dashboard':
    case 'GET /api/bugs/tester-dashboard':
    case 'GET /api/bugs/developer-dashboard': {
      const stray = outOfScope(json?.bugs ?? json?.recentBugs);
      return stray ? `${me.role} was shown bug ${stray._id} outside their scope` : null;
    }
    case 'GET /api/bugs/all-viewable': {
      const bugs = (json?.bugs ?? []) as Bug[];
      if (me.role === 'developer') {
        const stray = outOfScope(bugs);
        return stray ? `developer was shown bug ${stray._id} not assigned to them` : null;
      }
      if (me.role === 'tester') {
        const full = bugs.find(
          (b) => b.createdBy?._id !== me.id && ('description' in b || 'checklist' in b || 'attachments' in b),
        );
        return full ? `tester was shown more than a list row of bug ${full._id} someone else reported` : null;
      }
      return null;
    }
    case 'GET /api/bugs/assigned': {
      const stray = Array.isArray(json)
        ? (json as Bug[]).find((b) => !(b.assignedTo ?? []).some((u) => u._id === me.id))
        : undefined;
      return stray ? `bug ${stray._id} listed as assigned to a caller it is not assigned to` : null;
    }
    case 'GET /api/bugs/user/{id}': {
      if (me.role === 'developer') return 'developer listed a user’s bugs';
      if (me.role === 'tester' && id !== me.id) return 'tester listed another user’s bugs';
      const stray = Array.isArray(json) ? (json as Bug[]).find((b) => b.createdBy?._id !== id) : undefined;
      return stray ? `bug ${stray._id} listed among another user's reports` : null;
    }
    case 'GET /api/bugs/{id}': {
      if (id && ctx.deletedBefore.has(id)) return 'a deleted bug was answered';
      return json && !inScope(json) ? `${me.role} read bug ${json._id} outside their scope` : null;
    }
    case 'GET /api/bugs/{id}/history': {
      if (!id) return null;
      if (ctx.deletedBefore.has(id) && me.role !== 'admin') return `${me.role} read the history of a deleted bug`;
      const known = ctx.world.bugs.get(id);
      if (!known || me.role === 'admin') return null;
      if (me.role === 'tester' && known.creatorId !== me.id)
        return 'tester read the history of a bug they did not report';
      if (me.role === 'developer' && quiet(id) && !known.assigneeIds.has(me.id)) {
        return 'developer read the history of a bug not assigned to them';
      }
      return null;
    }
    case 'PUT /api/bugs/{id}':
    case 'PUT /api/bugs/{id}/status':
    case 'PUT /api/bugs/{id}/checklist':
    case 'DELETE /api/bugs/{id}':
      return id && ctx.deletedBefore.has(id) && me.role !== 'admin' ? `${me.role} changed a deleted bug` : null;
    case 'GET /api/users': {
      if (me.role === 'admin' || !Array.isArray(json)) return null;
      const leak = (json as Array<Record<string, unknown>>).find((u) => 'email' in u || 'assignedBugs' in u);
      return leak ? `${me.role} was shown e-mail or counters of user ${String(leak._id)} in the directory` : null;
    }
    case 'GET /api/users/{id}':
      return me.role !== 'admin' && id !== me.id && json && 'email' in json
        ? `${me.role} was shown another user's e-mail`
        : null;
    case 'PUT /api/users/{id}':
    case 'PATCH /api/users/{id}':
      return me.role !== 'admin' && id !== me.id ? `${me.role} changed another user's profile` : null;
    case 'GET /chats': {
      const hidden = Array.isArray(json)
        ? (json as Chat[]).find((c) => c.type !== 'public' && !c.participants?.some((u) => u._id === me.id))
        : undefined;
      return hidden ? `${me.role} was listed ${hidden.type} chat ${hidden._id} they are not in` : null;
    }
    case 'GET /chats/{id}': {
      const chat = json as Chat | undefined;
      return chat && chat.type !== 'public' && !chat.participants?.some((u) => u._id === me.id)
        ? `${me.role} read ${chat.type} chat they are not in`
        : null;
    }
    case 'GET /chats/{id}/messages':
    case 'POST /chats/{id}/read':
    case 'POST /chats/{id}/messages':
      return id && !chatVisible(id) ? `${me.role} reached a private chat they are not in` : null;
    case 'POST /chats/{id}/join': {
      const chat = id ? ctx.world.chats.get(id) : undefined;
      return chat && chat.type !== 'public' && quiet(chat.id) && !chat.participantIds.has(me.id)
        ? `${me.role} joined a ${chat.type} chat`
        : null;
    }
    case 'PUT /chats/{id}':
    case 'DELETE /chats/{id}': {
      const chat = id ? ctx.world.chats.get(id) : undefined;
      return chat && quiet(chat.id) && !chat.adminIds.has(me.id)
        ? `${me.role} changed a chat they are no admin of`
        : null;
    }
    case 'DELETE /chats/{id}/messages/{messageId}': {
      const messageId = request.pathParams.messageId;
      const message = typeof messageId === 'string' ? ctx.world.messages.get(messageId) : undefined;
      const chat = message ? ctx.world.chats.get(message.chatId) : undefined;
      if (!message || !chat || !quiet(chat.id) || message.senderId === me.id) return null;
      if (chat.adminIds.has(me.id)) return null;
      const which = ctx.deletedBefore.has(message.id) ? 'an already deleted message' : 'a message';
      return chat.type !== 'public' && !chat.participantIds.has(me.id)
        ? `${me.role} deleted ${which} of someone else in a chat they are not in`
        : `${me.role} deleted ${which} of someone else in a chat they are no admin of`;
    }
    default:
      return null;
  }
}
