import { streams } from '@bugtrail/domain';
import { verifyStore } from '@bugtrail/eventstore';
import { bugAt, bugHistory } from '@bugtrail/read-api';
import type { System } from './system.js';

type Out = (line: string) => void;

/**
 * `bugtrail history bug <id> [--at T] [--json]`: a bug's story read from the store itself,
 * no server needed. `--json` prints what `GET /api/bugs/{id}/history` answers (with
 * `--at`, the bug as it was then). Any other stream: `bugtrail history <stream>`.
 */
export async function historyCommand(system: System, args: readonly string[], out: Out): Promise<number> {
  const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--at');
  const at = args.includes('--at') ? args[args.indexOf('--at') + 1] : undefined;
  const json = args.includes('--json');
  if (positional[0] !== 'bug') {
    const stream = positional[0];
    if (!stream) throw new Error('usage: bugtrail history bug <id> [--at T] [--json]   or   bugtrail history <stream>');
    for (const event of await system.store.readStream(stream)) {
      out(
        JSON.stringify({
          revision: event.revision,
          type: event.type,
          at: event.metadata.occurredAt,
          actor: event.metadata.actorId,
          data: event.data,
          hash: event.hash,
        }),
      );
    }
    return 0;
  }
  const id = positional[1];
  if (!id) throw new Error('usage: bugtrail history bug <id> [--at T] [--json]');
  const events = await system.store.readStream(streams.bug(id));
  if (events.length === 0) {
    out(`no bug ${id}`);
    return 1;
  }
  if (at !== undefined) {
    if (Number.isNaN(Date.parse(at))) throw new Error(`--at must be an ISO 8601 time, got "${at}"`);
    const then = await bugAt({ db: system.db }, events, at);
    if (json) out(JSON.stringify(then, null, 2));
    else if (!then) out(`bug ${id} did not exist yet at ${at}`);
    else {
      out(`${then.title}  (as of ${at}${then.deleted ? ', deleted' : ''})`);
      out(`  status ${then.status} · priority ${then.priority} · severity ${then.severity} · version ${then.version}`);
      out(`  assigned to ${then.assignedTo.map((u) => u.name).join(', ') || 'nobody'}`);
      for (const item of then.checklist) out(`  [${item.completed ? 'x' : ' '}] ${item.text}`);
    }
    return 0;
  }
  const history = await bugHistory({ db: system.db }, id, events);
  if (json) {
    out(JSON.stringify(history, null, 2));
    return history.integrity.ok ? 0 : 1;
  }
  for (const entry of history.events) {
    const who = entry.actor?.name ?? 'system';
    const what = entry.changes.map((c) => `${c.field}: ${short(c.from)} → ${short(c.to)}`).join('; ');
    out(`#${entry.revision}  ${entry.at}  ${who}  ${entry.type}${what ? `  ${what}` : ''}`);
  }
  const { integrity } = history;
  out(
    integrity.ok
      ? `History intact: ${integrity.events} events, chain verified`
      : `History broken at revision ${integrity.brokenAt}`,
  );
  return integrity.ok ? 0 : 1;
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '—' : text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * `bugtrail verify`: every stream's chain and revisions, then every projection rebuilt into
 * shadow tables and compared with the live ones. Prints what differs; 1 on any difference.
 */
export async function verifyCommand(system: System, out: Out): Promise<number> {
  const chain = await verifyStore(system.store);
  out(`events: ${chain.events} in ${chain.streams} streams: ${chain.ok ? 'every chain verified' : 'BROKEN'}`);
  for (const b of chain.broken) out(`  broken: ${b.stream} revision ${b.revision}: ${b.reason}`);
  let differences = 0;
  for (const projection of system.projector.projections) {
    const found = await system.projector.compareWithRebuild(projection.name);
    if (found.length === 0) {
      out(`projection ${projection.name}: matches a fresh rebuild`);
      continue;
    }
    for (const d of found) {
      differences += d.onlyLive.length + d.onlyRebuilt.length;
      out(
        `projection ${d.projection}, table ${d.table}: ${d.onlyLive.length} rows only live, ${d.onlyRebuilt.length} only rebuilt`,
      );
      for (const row of d.onlyLive.slice(0, 5)) out(`  live:    ${JSON.stringify(row)}`);
      for (const row of d.onlyRebuilt.slice(0, 5)) out(`  rebuilt: ${JSON.stringify(row)}`);
    }
  }
  const ok = chain.ok && differences === 0;
  out(ok ? 'verify: ok' : 'verify: FAILED');
  return ok ? 0 : 1;
}
