import { useQuery } from '@tanstack/react-query';
import { Timer, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { messageOf } from '../../lib/api';
import { projectFieldsQuery } from '../../lib/fields';
import { notify } from '../../lib/notify';
import { projectsQuery } from '../../lib/projects';
import { profileQuery } from '../../lib/session';
import {
  type PolicyCompliance,
  percent,
  type SlaPolicy,
  slaComplianceQuery,
  slaPoliciesQuery,
  useCreateSla,
  useDeleteSla,
  useUpdateSla,
} from '../../lib/sla';
import { ConfirmModal } from '../confirm-modal';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { SelectField, TextField } from '../ui/field';
import {
  builtinFields,
  type ConditionRow,
  ConditionsEditor,
  conditionOf,
  opNames,
  options,
  rowId,
} from './conditions-editor';

/**
 * SLA policies (api.md "Automation rules", issue 38): respond within and resolve within, for the
 * bugs that match. A new policy is measured over the past at once: each row shows its compliance
 * over the last 90 days (to admins, who read the figures). `projectId`: one project's (its
 * settings); none: every policy (admins).
 */
export function SlaPolicies({ projectId }: { projectId?: string | undefined }) {
  const policies = useQuery(slaPoliciesQuery());
  const { data: user } = useQuery(profileQuery());
  const [window] = useState(() => ({
    from: new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10),
    to: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  }));
  const figures = useQuery({
    ...slaComplianceQuery(window),
    enabled: user?.role === 'admin',
  });
  const list = (policies.data?.policies ?? []).filter((p) => !projectId || p.projectId === projectId);
  const figuresOf = (id: string) => figures.data?.policies.find((p) => p._id === id);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <PolicyEditor projectId={projectId} />
      {policies.isError ? (
        <Card className="px-5 py-4 text-sm text-rose-600">
          {messageOf(policies.error, 'Could not load the SLA policies')}
        </Card>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState
            icon={<Timer className="size-6" />}
            title={policies.isPending ? 'Loading…' : 'No SLA policies yet'}
          />
        </Card>
      ) : (
        <Card>
          <CardHeader
            title="Policies"
            subtitle="A bug meets the first that holds for it: a project’s before every project’s, then the oldest."
          />
          <ul aria-label="SLA policies" className="divide-y divide-slate-100">
            {list.map((policy) => (
              <PolicyRow key={policy._id} policy={policy} figures={figuresOf(policy._id)} />
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

/** A new policy, or (`policy`) an existing one's name, targets and conditions (its project stays). */
function PolicyEditor({
  projectId: fixedProject,
  policy,
  onDone,
}: {
  projectId?: string | undefined;
  policy?: SlaPolicy;
  onDone?: () => void;
}) {
  const create = useCreateSla();
  const update = useUpdateSla();
  const projects = useQuery({ ...projectsQuery(), enabled: !fixedProject && !policy });
  const [name, setName] = useState(policy?.name ?? '');
  const [projectId, setProjectId] = useState(policy ? (policy.projectId ?? '') : (fixedProject ?? ''));
  const [conditions, setConditions] = useState<ConditionRow[]>(() =>
    policy
      ? policy.conditions.map((c) => ({
          id: rowId(),
          field: c.field,
          op: c.op,
          value: Array.isArray(c.value) ? c.value.join(', ') : String(c.value),
        }))
      : [{ id: rowId(), field: 'priority', op: 'is', value: 'High' }],
  );
  const [respondWithin, setRespond] = useState(policy ? (policy.respondWithin ?? '') : '4h');
  const [resolveWithin, setResolve] = useState(policy ? (policy.resolveWithin ?? '') : '3d');
  const [problem, setProblem] = useState<string | null>(null);
  const fields = useQuery({ ...projectFieldsQuery(projectId), enabled: !!projectId });
  const custom = fields.data?.fields ?? [];
  const numeric = new Set(custom.filter((f) => f.type === 'number').map((f) => f.key));
  const save = () => {
    const words = {
      name: name.trim(),
      conditions: conditions.map((row) => conditionOf(row, numeric.has(row.field))),
      respondWithin: respondWithin.trim() || null,
      resolveWithin: resolveWithin.trim() || null,
    };
    const onError = (error: unknown) => setProblem(messageOf(error, 'Could not save the policy'));
    if (policy) {
      update.mutate(
        { id: policy._id, changes: words },
        {
          onSuccess: (saved) => {
            notify.success(`SLA policy ${saved.name} saved: measured over the past already`);
            onDone?.();
          },
          onError,
        },
      );
      return;
    }
    create.mutate(
      { ...words, projectId: projectId || null },
      {
        onSuccess: (saved) => {
          notify.success(`SLA policy ${saved.name} saved: measured over the past already`);
          setName('');
        },
        onError,
      },
    );
  };
  return (
    <Card>
      <CardHeader
        title={policy ? `Edit SLA policy ${policy.name}` : 'New SLA policy'}
        subtitle="How soon matching bugs must leave Open (respond) and be Closed (resolve), counted from the report."
      />
      <form
        aria-label={policy ? `Edit SLA policy ${policy.name}` : 'New SLA policy'}
        className="grid gap-5 px-5 py-4"
        onSubmit={(e) => {
          e.preventDefault();
          setProblem(null);
          save();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Policy name"
            value={name}
            maxLength={80}
            placeholder="e.g. High priority"
            onChange={(e) => setName(e.target.value)}
          />
          {fixedProject || policy ? null : (
            <SelectField
              label="Holds for"
              value={projectId}
              options={[
                { value: '', label: 'Every project' },
                ...(projects.data?.projects ?? []).map((p) => ({ value: p._id, label: `${p.key} · ${p.name}` })),
              ]}
              onChange={(e) => setProjectId(e.target.value)}
            />
          )}
          <TextField
            label="Respond within"
            value={respondWithin}
            placeholder="30m, 4h, 2d"
            hint="Leave empty for no respond target"
            onChange={(e) => setRespond(e.target.value)}
          />
          <TextField
            label="Resolve within"
            value={resolveWithin}
            placeholder="30m, 4h, 2d"
            hint="Leave empty for no resolve target"
            onChange={(e) => setResolve(e.target.value)}
          />
        </div>
        <ConditionsEditor
          legend="For bugs where all of these hold"
          conditions={conditions}
          fieldOptions={options([...builtinFields, ...custom.map((f) => f.key)])}
          onChange={setConditions}
        />
        {problem ? (
          <p role="alert" className="text-sm text-rose-700">
            {problem}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          {policy ? (
            <Button variant="secondary" onClick={() => onDone?.()}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" isLoading={create.isPending || update.isPending}>
            Save policy
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** What a policy holds for, in one line. */
function policySummary(policy: SlaPolicy): string {
  const targets = [
    policy.respondWithin ? `respond within ${policy.respondWithin}` : null,
    policy.resolveWithin ? `resolve within ${policy.resolveWithin}` : null,
  ].filter(Boolean);
  const conditions = policy.conditions
    .map((c) => `${c.field} ${opNames[c.op]} ${Array.isArray(c.value) ? c.value.join(', ') : c.value}`)
    .join(' and ');
  return `${conditions ? `If ${conditions}: ` : 'Every bug: '}${targets.join(', ')}`;
}

function PolicyRow({ policy, figures }: { policy: SlaPolicy; figures: PolicyCompliance | undefined }) {
  const remove = useDeleteSla();
  const [isConfirming, setConfirming] = useState(false);
  const [isEditing, setEditing] = useState(false);
  return (
    <li className="grid gap-2 px-5 py-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{policy.name}</p>
          <p className="text-sm wrap-anywhere text-slate-600">{policySummary(policy)}</p>
          {figures ? (
            <p className="mt-1 text-xs text-slate-500">
              Last 90 days: {figures.bugs} {figures.bugs === 1 ? 'bug' : 'bugs'}
              {figures.respond ? ` · responded in time ${percent(figures.respond.compliance)}` : ''}
              {figures.resolve ? ` · resolved in time ${percent(figures.resolve.compliance)}` : ''}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 gap-1 self-start">
          <Button variant="ghost" size="sm" onClick={() => setEditing((v) => !v)} aria-expanded={isEditing}>
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="hover:text-rose-700"
            icon={<Trash2 className="size-4" aria-hidden="true" />}
            aria-label={`Delete ${policy.name}`}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        </div>
      </div>
      {isEditing ? <PolicyEditor policy={policy} onDone={() => setEditing(false)} /> : null}
      <ConfirmModal
        isOpen={isConfirming}
        title={`Delete the SLA policy ${policy.name}?`}
        confirmLabel="Delete policy"
        isBusy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(policy._id, {
            onSuccess: () => {
              notify.success(`SLA policy ${policy.name} deleted`);
              setConfirming(false);
            },
            onError: (error) => notify.error(messageOf(error, 'Could not delete the policy')),
          })
        }
      >
        Its bugs meet the next policy that holds for them, or none. Breaches already told stay in their histories.
      </ConfirmModal>
    </li>
  );
}
