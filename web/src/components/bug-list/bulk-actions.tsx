import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { api, messageOf } from '../../lib/api';
import { bugName, statusLabel } from '../../lib/format';
import { teamQuery } from '../../lib/queries';
import { queryKeys } from '../../lib/query-keys';
import type { Bug, BugStatus } from '../../lib/types';
import { ConfirmModal } from '../confirm-modal';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';
import { personOptionText } from '../ui/person-name';

type Outcome = { id: string; label: string; ok: boolean; message: string };
type Action = { kind: 'assign'; developerId: string } | { kind: 'status'; status: BugStatus } | { kind: 'delete' };

const statuses: BugStatus[] = ['Open', 'In Progress', 'Closed'];

/** One bug, one command, one Idempotency-Key: a retried request never acts twice. */
async function act(bug: Bug, action: Action): Promise<string> {
  const headers = { 'idempotency-key': crypto.randomUUID() };
  if (action.kind === 'delete') {
    await api(`/api/bugs/${bug._id}`, { method: 'DELETE', headers });
    return 'Deleted';
  }
  if (action.kind === 'status') {
    await api(`/api/bugs/${bug._id}/status`, { method: 'PUT', body: { status: action.status }, headers });
    return `Now ${statusLabel(action.status, 'admin')}`;
  }
  const ids = bug.assignedTo.map((u) => u._id);
  if (ids.includes(action.developerId)) return 'Already assigned';
  await api(`/api/bugs/${bug._id}`, {
    method: 'PUT',
    body: { assignedTo: [...ids, action.developerId] },
    // Edited since the list loaded: refuse rather than overwrite (409 "changed meanwhile").
    headers: { ...headers, 'if-match': String(bug.version) },
  });
  return 'Assigned';
}

/**
 * Admin actions on the selected bugs: assign a developer, set a status, delete. Each bug
 * is its own command, sent one after another with progress, and each gets its own line
 * in the result (a refused one does not stop the rest).
 */
export function BulkActions({ bugs, onClear }: { bugs: Bug[]; onClear: () => void }) {
  const client = useQueryClient();
  const team = useQuery({ ...teamQuery(), staleTime: 60_000 });
  const developers = (team.data ?? []).filter((p) => p.role === 'developer');
  const [running, setRunning] = useState<{ done: number; total: number } | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const run = async (action: Action) => {
    setConfirmDelete(false);
    const results: Outcome[] = [];
    setOutcomes([]);
    setRunning({ done: 0, total: bugs.length });
    for (const [i, bug] of bugs.entries()) {
      const label = `${bugName(bug) || '?'} ${bug.title}`;
      try {
        results.push({ id: bug._id, label, ok: true, message: await act(bug, action) });
      } catch (error) {
        results.push({ id: bug._id, label, ok: false, message: messageOf(error, 'Failed') });
      }
      setOutcomes([...results]);
      setRunning({ done: i + 1, total: bugs.length });
    }
    setRunning(null);
    void client.invalidateQueries({ queryKey: queryKeys.bugs.all });
    void client.invalidateQueries({ queryKey: queryKeys.dashboard.all });
  };

  const busy = running !== null;
  return (
    <section
      aria-label="Bulk actions"
      className="mb-4 flex flex-col gap-3 rounded-xl border border-brand-200 bg-brand-50/50 p-3"
    >
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm font-medium text-slate-800">{bugs.length} selected</p>
        <select
          aria-label="Assign selected to"
          disabled={busy || bugs.length === 0}
          value=""
          onChange={(event) => event.target.value && void run({ kind: 'assign', developerId: event.target.value })}
          className={cx(controlClass(), 'h-9 max-w-52')}
        >
          <option value="">Assign to…</option>
          {developers.map((d) => (
            <option key={d._id} value={d._id}>
              {personOptionText(d)}
            </option>
          ))}
        </select>
        <select
          aria-label="Set status of selected"
          disabled={busy || bugs.length === 0}
          value=""
          onChange={(event) =>
            event.target.value && void run({ kind: 'status', status: event.target.value as BugStatus })
          }
          className={cx(controlClass(), 'h-9 max-w-44')}
        >
          <option value="">Set status…</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s, 'admin')}
            </option>
          ))}
        </select>
        <Button
          variant="danger"
          size="sm"
          className="h-9"
          disabled={busy || bugs.length === 0}
          onClick={() => setConfirmDelete(true)}
        >
          Delete selected
        </Button>
        <Button variant="ghost" size="sm" className="h-9" disabled={busy} onClick={onClear}>
          Clear selection
        </Button>
        {running ? (
          <p role="status" className="text-sm text-slate-600">
            Working… {running.done} of {running.total}
          </p>
        ) : null}
      </div>
      {outcomes.length > 0 ? (
        <div>
          <p role={busy ? undefined : 'status'} className="text-sm text-slate-700">
            {outcomes.filter((o) => o.ok).length} of {outcomes.length} done
            {outcomes.some((o) => !o.ok) ? `, ${outcomes.filter((o) => !o.ok).length} failed` : ''}
          </p>
          <ul aria-label="Results" className="mt-1 max-h-40 overflow-y-auto text-sm">
            {outcomes.map((o) => (
              <li key={o.id} className="flex min-w-0 items-center gap-2 py-0.5">
                {o.ok ? (
                  <CheckCircle2 className="size-4 shrink-0 text-emerald-600" aria-label="Done" />
                ) : (
                  <XCircle className="size-4 shrink-0 text-rose-600" aria-label="Failed" />
                )}
                <span className="truncate text-slate-800">{o.label}</span>
                <span className={cx('shrink-0', o.ok ? 'text-slate-500' : 'text-rose-700')}>{o.message}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ConfirmModal
        isOpen={confirmDelete}
        title="Delete Bugs"
        confirmLabel={`Delete ${bugs.length}`}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => void run({ kind: 'delete' })}
      >
        Delete {bugs.length} selected {bugs.length === 1 ? 'bug' : 'bugs'}? This cannot be undone.
      </ConfirmModal>
    </section>
  );
}
