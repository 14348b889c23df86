/**
 * The fuzz loop: seed a world through the API, then send `requests` generated requests
 * (request i is generated from `seed` and i alone, given the world at that moment) with
 * `concurrency` in flight, judge every answer with the oracles, learn from it (new ids,
 * owners, cursors, positions) and keep the world bounded. Answers a report with the
 * counts and the findings, grouped so that one bug is one line.
 */
import fc from 'fast-check';
import { type FuzzBody, type FuzzRequest, operationArbitrary, type ParamValue } from './arbitraries.js';
import { createHttpClient, type HttpClient, type RawAnswer, type RawRequest, TransportError } from './client.js';
import { fetchOpenApiModel, type OpenApiModel, type Operation } from './openapi-model.js';
import { checkPermission, checkSchema, type Finding, type Judged, parseAnswer, SchemaChecker } from './oracles.js';
import { encodeMultipart, MULTIPART_BOUNDARY } from './samples.js';
import { type Caller, PRINCIPALS, type PrincipalName, World } from './world.js';

export type FuzzOptions = {
  url: string;
  requests: number;
  seed: number;
  concurrency: number;
  /** The admin invite code of the target (the test systems use TEST_INVITE_CODE). */
  inviteCode: string;
  /** Share of requests broken on purpose (default 0.35). */
  invalidShare?: number;
  /** Which operations to fuzz (default: all but the document itself, which is fetched once anyway). */
  includeOperation?: (op: Operation) => boolean;
  callers?: readonly Caller[];
  timeoutMs?: number;
  /** Bugs and chats the fuzz made that are kept before the oldest are deleted. */
  maxLiveBugs?: number;
  maxLiveChats?: number;
  onProgress?: (progress: Progress) => void;
  /** Every request and its answer, for tuning the generator (`FUZZ_LOG=file` in main.ts). */
  onAnswer?: (request: FuzzRequest, raw: RawRequest, answer: RawAnswer) => void;
  progressEveryMs?: number;
};

export type Progress = { done: number; total: number; elapsedMs: number; findings: number };

/** One finding however often it happened, with the operations it happened on and a first reproduction. */
export type GroupedFinding = Finding & { count: number; operations: string[]; example: string };

export type OperationCounts = { requests: number; statuses: Record<number, number> };

export type FuzzReport = {
  seed: number;
  requests: number;
  durationMs: number;
  byStatusClass: Record<string, number>;
  byOperation: Record<string, OperationCounts>;
  byMode: Record<string, number>;
  byCaller: Record<string, number>;
  serverErrors: number;
  schemaViolations: number;
  undocumentedStatuses: number;
  permissionViolations: number;
  transportErrors: number;
  findings: GroupedFinding[];
  /** Requests the world's upkeep made (deleting old bugs and chats, logging in again): judged too, not counted above. */
  upkeepRequests: number;
  relogins: number;
};

export const ALL_CALLERS: readonly Caller[] = ['anonymous', 'intruder', ...PRINCIPALS];

/** A small seedable generator in the shape fast-check's Random takes (mulberry32). */
class Mulberry32 {
  constructor(private state: number) {}
  clone() {
    return new Mulberry32(this.state);
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) | 0;
  }
  jump() {
    for (let i = 0; i < 42; i++) this.next();
  }
  getState(): readonly number[] {
    return [this.state];
  }
}

/** fast-check's Random for request `index` of a run with `seed`. */
function randomFor(seed: number, index: number): fc.Random {
  const mixed = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  return new fc.Random(new Mulberry32(mixed) as unknown as ConstructorParameters<typeof fc.Random>[0]);
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const client = createHttpClient(options.url, {
    timeoutMs: options.timeoutMs ?? 30_000,
    maxSockets: options.concurrency * 2,
  });
  try {
    const model = await fetchOpenApiModel(options.url);
    const world = await World.seed(client, options.inviteCode);
    return await new FuzzRun(options, client, model, world).run();
  } finally {
    client.close();
  }
}

class FuzzRun {
  private readonly schemas: SchemaChecker;
  private readonly arbitraries: Array<fc.Arbitrary<FuzzRequest>>;
  private readonly grouped = new Map<string, GroupedFinding>();
  private readonly report: FuzzReport;
  private janitor: Promise<void> | null = null;
  private done = 0;
  private readonly origin: string;

  constructor(
    private readonly options: FuzzOptions,
    private readonly client: HttpClient,
    model: OpenApiModel,
    private readonly world: World,
  ) {
    this.schemas = new SchemaChecker(model);
    this.origin = new URL(options.url).origin;
    const include = options.includeOperation ?? ((op: Operation) => op.path !== '/api/openapi.json');
    const operations = model.operations.filter(include);
    if (operations.length === 0) throw new Error('no operation to fuzz');
    const generatorOptions = { invalidShare: options.invalidShare ?? 0.35, callers: options.callers ?? ALL_CALLERS };
    this.arbitraries = operations.map((op) => operationArbitrary(model, op, world, generatorOptions));
    this.report = {
      seed: options.seed,
      requests: 0,
      durationMs: 0,
      byStatusClass: {},
      byOperation: Object.fromEntries(operations.map((op) => [op.id, { requests: 0, statuses: {} }])),
      byMode: {},
      byCaller: {},
      serverErrors: 0,
      schemaViolations: 0,
      undocumentedStatuses: 0,
      permissionViolations: 0,
      transportErrors: 0,
      findings: [],
      upkeepRequests: 0,
      relogins: 0,
    };
  }

  async run(): Promise<FuzzReport> {
    const started = performance.now();
    let next = 0;
    const progress = setInterval(
      () =>
        this.options.onProgress?.({
          done: this.done,
          total: this.options.requests,
          elapsedMs: performance.now() - started,
          findings: this.grouped.size,
        }),
      this.options.progressEveryMs ?? 2000,
    );
    try {
      const worker = async () => {
        for (let index = next++; index < this.options.requests; index = next++) {
          await this.one(this.generate(index), index);
          this.done++;
        }
      };
      await Promise.all(Array.from({ length: this.options.concurrency }, worker));
      await this.janitor;
    } finally {
      clearInterval(progress);
    }
    this.report.durationMs = performance.now() - started;
    this.report.relogins = this.world.relogins;
    this.report.findings = [...this.grouped.values()].sort((a, b) => a.kind.localeCompare(b.kind) || b.count - a.count);
    return this.report;
  }

  private generate(index: number): FuzzRequest {
    const random = randomFor(this.options.seed, index);
    const which = random.nextInt(0, this.arbitraries.length - 1);
    return this.arbitraries[which]!.generate(random, 3).value;
  }

  private async one(request: FuzzRequest, index: number) {
    const op = request.operation;
    const raw = toRawRequest(request, this.world, index);
    const ids = Object.values(request.pathParams).filter((v): v is string => typeof v === 'string');
    const deletedBefore = new Set(
      ids.filter((id) => this.world.bugs.get(id)?.deleted || this.world.messages.get(id)?.deleted),
    );
    const ticket = this.world.activity.begin(ids, op.method !== 'get');
    const counts = this.report.byOperation[op.id]!;
    counts.requests++;
    this.report.requests++;
    this.report.byMode[request.mode] = (this.report.byMode[request.mode] ?? 0) + 1;
    this.report.byCaller[request.caller] = (this.report.byCaller[request.caller] ?? 0) + 1;
    let answer: RawAnswer;
    try {
      answer = await this.client.send(raw, { holdStreamMs: request.holdStreamMs });
    } catch (error) {
      this.world.activity.end(ticket);
      const size = raw.body?.length ?? 0;
      // A server may hang up on a body it refused past its limit while the rest still streams.
      if (error instanceof TransportError && size > 1_000_000) {
        this.count(counts, 413);
        return;
      }
      this.report.transportErrors++;
      this.addFinding(
        {
          kind: 'transport',
          operation: op.id,
          caller: request.caller,
          mode: request.mode,
          status: 0,
          detail: (error as Error).message,
          key: `transport ${op.id} ${request.mode} ${(error as Error).message.replace(/\d+/g, 'N')}`,
        },
        request,
        raw,
      );
      return;
    }
    this.count(counts, answer.status);
    const judged = parseAnswer(answer);
    this.options.onAnswer?.(request, raw, answer);
    const findings = checkSchema(request, judged, this.schemas);
    const isReplay = String(answer.headers['idempotent-replayed'] ?? '') === 'true';
    const broken = checkPermission(request, judged, { world: this.world, ticket, deletedBefore, isReplay });
    // Objects of the path nobody else changed meanwhile: what this answer says of them is current.
    const quiet = new Set(isReplay ? [] : ids.filter((id) => this.world.activity.isQuiet(ticket, id)));
    this.world.activity.end(ticket);
    if (broken) {
      findings.push({
        kind: 'permission',
        operation: op.id,
        caller: request.caller,
        mode: request.mode,
        status: answer.status,
        detail: broken,
        // Both mounts of a router (/api/chats and /chats) are one finding.
        // and so are the roles that break the same rule.
        key: `permission ${op.method} ${op.path.replace(/^\/api(?=\/chats)/, '')} ${broken.replace(/^(admin|tester|developer) /, '').replace(/[0-9a-f-]{36}/g, '{id}')}`,
      });
    }
    for (const finding of findings) {
      if (finding.kind === 'server-error') this.report.serverErrors++;
      if (finding.kind === 'schema') this.report.schemaViolations++;
      if (finding.kind === 'undocumented-status') this.report.undocumentedStatuses++;
      if (finding.kind === 'permission') this.report.permissionViolations++;
      this.addFinding(finding, request, raw, answer);
    }
    // A replay repeats an earlier answer: what it says may be out of date.
    if (!isReplay) await this.learn(request, judged, (id) => quiet.has(id) || !ids.includes(id));
    this.keepBounded();
  }

  private count(counts: { statuses: Record<number, number> }, status: number) {
    counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
    const statusClass = status === 0 ? 'none' : `${Math.floor(status / 100)}xx`;
    this.report.byStatusClass[statusClass] = (this.report.byStatusClass[statusClass] ?? 0) + 1;
  }

  private addFinding(finding: Finding, request: FuzzRequest, raw: RawRequest, answer?: RawAnswer) {
    const known = this.grouped.get(finding.key);
    if (known) {
      known.count++;
      if (!known.operations.includes(finding.operation)) known.operations.push(finding.operation);
      return;
    }
    this.grouped.set(finding.key, {
      ...finding,
      count: 1,
      operations: [finding.operation],
      example: describeRequest(request, raw, answer),
    });
  }

  /** What answers say about the world: new objects, owners, members, cursors, positions, credentials. */
  private async learn(request: FuzzRequest, judged: Judged, isCertain: (id: string) => boolean) {
    const { answer, json } = judged;
    const op = request.operation;
    const world = this.world;
    const position = answer.headers['x-event-position'];
    if (typeof position === 'string') world.remember(world.positions, position);
    const cursor = answer.headers['x-next-cursor'];
    if (typeof cursor === 'string') world.remember(world.cursors, cursor);
    const caller = PRINCIPALS.includes(request.caller as PrincipalName)
      ? world.principal(request.caller as PrincipalName)
      : null;
    if (answer.status === 401 && caller && request.mode === 'valid' && !caller.relogin) {
      // The token was revoked (a logout or a password change the world missed): sign in again.
      await world.refresh(caller);
      return;
    }
    if (answer.status < 200 || answer.status >= 300 || json === undefined) return;
    const body = json as any;
    if ((answer.text?.length ?? 0) < 64_000) this.collectLinks(body);
    const path = op.path.replace(/^\/api(?=\/chats)/, '');
    const id = typeof request.pathParams.id === 'string' ? request.pathParams.id : null;
    const isWrite = op.method !== 'get';
    if (body?.bug) world.noteBug(body.bug, { certain: isCertain(body.bug._id) });
    if (op.method === 'get' && path === '/api/bugs/{id}' && id && world.bugs.has(id)) {
      world.noteBug(body, { certain: isCertain(id) });
    }
    if (path.startsWith('/chats/{id}') && body && typeof body === 'object' && 'participants' in body) {
      world.noteChat(body, { certain: isCertain(body._id) });
    }
    if (path === '/chats' && Array.isArray(body)) {
      for (const chat of body) if (!world.chats.has(chat?._id)) world.noteChat(chat, { certain: false });
    }
    if (path === '/chats' && isWrite && body?._id) world.noteChat(body, { certain: isCertain(body._id) });
    if (path.startsWith('/chats/{id}/messages') && body && typeof body === 'object' && 'sender' in body)
      world.noteMessage(body);
    if (op.method === 'delete' && id && path === '/api/bugs/{id}') {
      const bug = world.bugs.get(id);
      if (bug) bug.deleted = true;
    }
    if (op.method === 'delete' && id && path === '/chats/{id}') {
      const chat = world.chats.get(id);
      if (chat) chat.deleted = true;
    }
    if (op.path.endsWith('/register') && body?._id) {
      if (world.users.size < 400) world.users.set(body._id, { id: body._id, role: body.role, email: body.email });
    }
    if (op.path.endsWith('/upload-image') && typeof body?.imageURL === 'string')
      world.remember(world.images, body.imageURL, 20);
    if (op.path.endsWith('/invite-codes') && typeof body?.code === 'string')
      world.remember(world.inviteCodes, body.code, 20);
    if (op.path.endsWith('/logout') && caller) await world.refresh(caller);
    if (path === '/api/users/{id}/role' && id && typeof body?.user?.role === 'string') {
      const user = world.users.get(id);
      if (user) user.role = body.user.role;
    }
    if (path === '/api/users/{id}' && isWrite && id) {
      const target = world.principalById(id);
      const sent = request.body?.kind === 'json' ? (request.body.value as Record<string, unknown>) : null;
      if (target && sent) {
        if (typeof sent.email === 'string' && sent.email.trim()) target.email = sent.email.trim().toLowerCase();
        if (typeof sent.password === 'string' && sent.password) {
          target.password = sent.password;
          if (typeof body.token === 'string' && caller?.id === id) target.token = body.token;
          else await world.refresh(target);
        }
      }
    }
  }

  /** Paths on this server found in an answer (`…/uploads/…` links, bug files' urls): the generator fills path templates with them. */
  private collectLinks(value: unknown, depth = 0) {
    if (depth > 8) return;
    if (typeof value === 'string') {
      const path = value.startsWith(this.origin) ? value.slice(this.origin.length) : value;
      if (path.startsWith('/uploads/') || /^\/api\/bugs\/[^/]+\/attachments\/[^/]+$/.test(path)) {
        this.world.remember(this.world.links, path, 60);
      }
    } else if (Array.isArray(value)) {
      for (const item of value.slice(0, 20)) this.collectLinks(item, depth + 1);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) this.collectLinks(item, depth + 1);
    }
  }

  /** Deletes the oldest bugs and chats the fuzz made once there are too many (lists stay small). */
  private keepBounded() {
    if (this.janitor) return;
    const bugs = [...this.world.bugs.values()].filter((b) => !b.seeded && !b.deleted);
    const chats = [...this.world.chats.values()].filter((c) => !c.seeded && !c.deleted);
    const extraBugs = bugs.slice(0, Math.max(0, bugs.length - (this.options.maxLiveBugs ?? 60)));
    const extraChats = chats.slice(0, Math.max(0, chats.length - (this.options.maxLiveChats ?? 30)));
    if (extraBugs.length === 0 && extraChats.length === 0) return;
    const admin = this.world.principal('admin');
    this.janitor = (async () => {
      for (const bug of extraBugs) {
        const answer = await this.upkeep({
          method: 'DELETE',
          target: `/api/bugs/${bug.id}`,
          headers: { authorization: `Bearer ${admin.token}` },
        });
        if (answer?.status === 200 || answer?.status === 404) bug.deleted = true;
      }
      for (const chat of extraChats) {
        // Only a chat's admins may delete it: try each principal that is one.
        for (const principal of PRINCIPALS.map((p) => this.world.principal(p)).filter((p) => chat.adminIds.has(p.id))) {
          const answer = await this.upkeep({
            method: 'DELETE',
            target: `/chats/${chat.id}`,
            headers: { authorization: `Bearer ${principal.token}` },
          });
          if (answer?.status === 200 || answer?.status === 404) {
            chat.deleted = true;
            break;
          }
        }
        chat.deleted = true;
      }
    })().finally(() => {
      this.janitor = null;
    });
  }

  private async upkeep(raw: RawRequest): Promise<RawAnswer | null> {
    this.report.upkeepRequests++;
    const ids = [raw.target.split('/').pop()!];
    const ticket = this.world.activity.begin(ids, true);
    try {
      return await this.client.send(raw);
    } catch {
      return null;
    } finally {
      this.world.activity.end(ticket);
    }
  }
}

function encodeParam(value: ParamValue): string {
  if (typeof value !== 'string') return value.raw;
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate cannot be percent-encoded as UTF-8: send the bytes a broken client would.
    return '%ED%A0%80';
  }
}

export function toRawRequest(request: FuzzRequest, world: World, index: number): RawRequest {
  const op = request.operation;
  let target = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeParam(request.pathParams[name] ?? ''));
  if (request.query.length > 0) {
    target += `?${request.query.map(([k, v]) => `${encodeParam(k)}=${encodeParam(v)}`).join('&')}`;
  }
  const headers: Record<string, string> = { ...request.headers };
  if (request.caller === 'intruder') {
    headers.authorization = world.badAuthorizations[index % world.badAuthorizations.length]!;
  } else if (request.caller !== 'anonymous') {
    headers.authorization = `Bearer ${world.principal(request.caller).token}`;
  }
  const raw: RawRequest = { method: op.method.toUpperCase(), target, headers };
  const body = serialiseBody(request.body);
  if (body) {
    raw.body = body.bytes;
    if (body.contentType) headers['content-type'] = body.contentType;
  }
  return raw;
}

function serialiseBody(body: FuzzBody | null): { bytes: string | Uint8Array; contentType: string | null } | null {
  if (!body) return null;
  switch (body.kind) {
    case 'json':
      return { bytes: JSON.stringify(body.value) ?? 'null', contentType: 'application/json' };
    case 'raw':
      return { bytes: body.text, contentType: body.contentType };
    case 'multipart': {
      let bytes = encodeMultipart(body.parts);
      if (body.truncate) bytes = bytes.subarray(0, Math.max(0, bytes.length - body.truncate));
      return { bytes, contentType: body.contentType ?? `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` };
    }
  }
}

/** Long strings shortened, so a reproduction stays readable. */
function preview(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    typeof v === 'string' && v.length > 80 ? `${v.slice(0, 40)}…(${v.length} chars)` : v,
  );
}

export function describeRequest(request: FuzzRequest, raw: RawRequest, answer?: RawAnswer): string {
  const lines = [
    `${raw.method} ${raw.target.length > 300 ? `${raw.target.slice(0, 300)}…` : raw.target}  (as ${request.caller}, ${request.mode})`,
  ];
  for (const [name, value] of Object.entries(raw.headers)) {
    if (name === 'authorization') continue;
    lines.push(`${name}: ${value.length > 100 ? `${value.slice(0, 100)}…` : value}`);
  }
  const body = request.body;
  if (body?.kind === 'json') lines.push(`body: ${preview(body.value)?.slice(0, 600)}`);
  if (body?.kind === 'raw') {
    const text = typeof body.text === 'string' ? body.text : `<${body.text.length} bytes>`;
    lines.push(`body: ${text.length > 200 ? `${text.slice(0, 200)}…(${text.length} chars)` : JSON.stringify(text)}`);
  }
  if (body?.kind === 'multipart') {
    lines.push(
      `multipart: ${body.parts.map((p) => ('value' in p ? `${p.name}=${JSON.stringify(p.value.slice(0, 60))}` : `${p.name}=<${p.filename} ${p.type} ${p.bytes.length} B>`)).join(', ')}${body.truncate ? ` (last ${body.truncate} bytes cut)` : ''}${body.contentType ? ` content-type: ${body.contentType}` : ''}`,
    );
  }
  if (answer) lines.push(`→ ${answer.status} ${(answer.text ?? '').slice(0, 300)}`);
  return lines.join('\n    ');
}

/** The report as a table and a list of findings, for people. */
export function formatReport(report: FuzzReport): string {
  const out: string[] = [];
  const n = (v: number) => v.toLocaleString('en-US');
  out.push(
    `seed ${report.seed}: ${n(report.requests)} requests in ${(report.durationMs / 1000).toFixed(1)} s (${n(Math.round(report.requests / (report.durationMs / 1000)))}/s)`,
  );
  out.push(
    `status classes: ${Object.entries(report.byStatusClass)
      .sort()
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(', ')}`,
  );
  out.push(
    `callers: ${Object.entries(report.byCaller)
      .sort()
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(', ')}`,
  );
  out.push(
    `modes: ${Object.entries(report.byMode)
      .sort()
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(', ')}`,
  );
  out.push('');
  const rows = Object.entries(report.byOperation).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...rows.map(([id]) => id.length), 9);
  out.push(`${'operation'.padEnd(width)}  requests  statuses`);
  for (const [id, counts] of rows) {
    const statuses = Object.entries(counts.statuses)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, c]) => `${s}×${c}`)
      .join(' ');
    out.push(`${id.padEnd(width)}  ${String(counts.requests).padStart(8)}  ${statuses}`);
  }
  out.push('');
  out.push(
    `5xx: ${n(report.serverErrors)}  schema violations: ${n(report.schemaViolations)}  undocumented statuses: ${n(report.undocumentedStatuses)}  permission violations: ${n(report.permissionViolations)}  transport errors: ${n(report.transportErrors)}`,
  );
  out.push(`upkeep requests: ${n(report.upkeepRequests)}  re-logins: ${n(report.relogins)}`);
  if (report.findings.length > 0) {
    out.push('', `${report.findings.length} distinct findings:`);
    for (const f of report.findings) {
      const where =
        f.operations.length > 1 ? `${f.operations.length} operations (${f.operations.sort().join(', ')})` : f.operation;
      out.push(`- [${f.kind}] ${where} → ${f.status || 'no answer'}, ×${f.count}: ${f.detail}`);
      out.push(`    ${f.example}`);
    }
  }
  return out.join('\n');
}
