import {
  type AutomationAction,
  type AutomationCondition,
  type AutomationTrigger,
  actionTypes,
  automationTriggerNames,
  notifyRoles,
} from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FlaskConical, Plus, Trash2, Workflow, X } from 'lucide-react';
import { useState } from 'react';
import { messageOf } from '../../lib/api';
import {
  type Automation,
  type AutomationDraft,
  automationRunsQuery,
  automationsQuery,
  type Simulation,
  simulateDraft,
  useCreateAutomation,
  useDeleteAutomation,
  useUpdateAutomation,
} from '../../lib/automations';
import { projectFieldsQuery } from '../../lib/fields';
import { labelsQuery } from '../../lib/labels';
import { notify } from '../../lib/notify';
import { milestonesQuery } from '../../lib/planning';
import { projectsQuery } from '../../lib/projects';
import { developersQuery } from '../../lib/queries';
import { ConfirmModal } from '../confirm-modal';
import { Badge } from '../ui/badge';
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
 * Automation rules (api.md "Automation rules", issue 38): a rule editor with a dry run over the
 * last 30 days before it is saved, and each rule's switch and run log. `projectId`: the rules of
 * one project (its settings); none: every rule (admins).
 */
const triggerNames: Record<AutomationTrigger, string> = {
  'bug.reported': 'A bug is reported',
  'bug.status_changed': 'Its status changes',
  'bug.field_changed': 'A field changes',
  'bug.labeled': 'It gets a label',
  'bug.commented': 'Someone comments',
  'bug.code_linked': 'Code is linked',
  'bug.due_passed': 'Its due date passes',
};
const actionNames: Record<AutomationAction['type'], string> = {
  set_field: 'Set a field',
  set_status: 'Set the status',
  assign: 'Assign a developer',
  add_label: 'Add a label',
  remove_label: 'Remove a label',
  comment: 'Comment',
  notify: 'Notify',
  set_milestone: 'Set the milestone',
};

type ActionRow = { id: number; action: AutomationAction };

/** What a rule says, in one line. */
export function ruleSummary(rule: Pick<Automation, 'when' | 'then'>): string {
  const when = triggerNames[rule.when.event] ?? rule.when.event;
  const conditions = rule.when.conditions
    .map((c) => `${c.field} ${opNames[c.op]} ${Array.isArray(c.value) ? c.value.join(', ') : c.value}`)
    .join(' and ');
  const actions = rule.then.map((a) => actionNames[a.type] ?? a.type).join(', ');
  return `${when}${conditions ? `, if ${conditions}` : ''}: ${actions.toLowerCase()}`;
}

export function Automations({ projectId }: { projectId?: string | undefined }) {
  const rules = useQuery(automationsQuery());
  const list = (rules.data?.automations ?? []).filter((r) => !projectId || r.projectId === projectId);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <RuleEditor projectId={projectId} />
      {rules.isError ? (
        <Card className="px-5 py-4 text-sm text-rose-600">{messageOf(rules.error, 'Could not load the rules')}</Card>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState icon={<Workflow className="size-6" />} title={rules.isPending ? 'Loading…' : 'No rules yet'} />
        </Card>
      ) : (
        <Card>
          <CardHeader title="Rules" subtitle={`${list.length} ${list.length === 1 ? 'rule' : 'rules'}`} />
          <ul aria-label="Rules" className="divide-y divide-slate-100">
            {list.map((rule) => (
              <RuleRow key={rule._id} rule={rule} />
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

const blankAction = (type: AutomationAction['type']): AutomationAction => {
  switch (type) {
    case 'set_field':
      return { type, field: 'priority', value: 'High' };
    case 'set_status':
      return { type, status: 'In Progress' };
    case 'assign':
      return { type, userIds: [] };
    case 'add_label':
    case 'remove_label':
      return { type, labelId: '' };
    case 'comment':
      return { type, body: '' };
    case 'notify':
      return { type, role: 'admin' };
    case 'set_milestone':
      return { type, milestoneId: null };
  }
};

/** A rule's conditions as the editor's rows (a list as "a, b, c"). */
const rowsOf = (conditions: readonly AutomationCondition[]): ConditionRow[] =>
  conditions.map((c) => ({
    id: rowId(),
    field: c.field,
    op: c.op,
    value: Array.isArray(c.value) ? c.value.join(', ') : String(c.value),
  }));

/**
 * A new rule, or (`rule`) an existing one's words: its name, trigger, conditions and actions
 * (its project stays). Both can be tried on the last 30 days before they are saved.
 */
function RuleEditor({
  projectId: fixedProject,
  rule,
  onDone,
}: {
  projectId?: string | undefined;
  rule?: Automation;
  onDone?: () => void;
}) {
  const create = useCreateAutomation();
  const update = useUpdateAutomation();
  const projects = useQuery({ ...projectsQuery(), enabled: !fixedProject && !rule });
  const [name, setName] = useState(rule?.name ?? '');
  const [projectId, setProjectId] = useState<string>(rule ? (rule.projectId ?? '') : (fixedProject ?? ''));
  const [event, setEvent] = useState<AutomationTrigger>(rule?.when.event ?? 'bug.reported');
  const [conditions, setConditions] = useState<ConditionRow[]>(() =>
    rule ? rowsOf(rule.when.conditions) : [{ id: rowId(), field: 'priority', op: 'is', value: 'High' }],
  );
  const [actions, setActions] = useState<ActionRow[]>(() =>
    rule ? rule.then.map((action) => ({ id: rowId(), action })) : [{ id: rowId(), action: blankAction('add_label') }],
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [simulation, setSimulation] = useState<Simulation | null>(null);
  const [isSimulating, setSimulating] = useState(false);
  const fields = useQuery({ ...projectFieldsQuery(projectId), enabled: !!projectId });
  const custom = fields.data?.fields ?? [];
  const numeric = new Set(custom.filter((f) => f.type === 'number').map((f) => f.key));
  const draft = (): AutomationDraft => ({
    name: name.trim(),
    projectId: projectId || null,
    when: { event, conditions: conditions.map((row) => conditionOf(row, numeric.has(row.field))) },
    // biome-ignore lint/suspicious/noThenProperty: api.md's word for a rule's actions (an array, never a thenable)
    then: actions.map((a) => a.action),
  });
  const changed = () => {
    setProblem(null);
    setSimulation(null);
  };
  const fieldOptions = options([...builtinFields, ...custom.map((f) => f.key)]);

  const simulate = async () => {
    setSimulating(true);
    setProblem(null);
    try {
      const to = new Date(Date.now() + 60_000).toISOString();
      const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
      setSimulation(await simulateDraft({ ...draft(), name: draft().name || 'Draft' }, from, to));
    } catch (error) {
      setProblem(messageOf(error, 'Could not simulate the rule'));
    } finally {
      setSimulating(false);
    }
  };
  const save = () => {
    const onError = (error: unknown) => setProblem(messageOf(error, 'Could not save the rule'));
    if (rule) {
      const { projectId: _project, ...changes } = draft();
      update.mutate(
        { id: rule._id, changes },
        {
          onSuccess: (saved) => {
            notify.success(`Rule ${saved.name} saved`);
            onDone?.();
          },
          onError,
        },
      );
      return;
    }
    create.mutate(draft(), {
      onSuccess: (saved) => {
        notify.success(`Rule ${saved.name} saved`);
        setName('');
        setSimulation(null);
      },
      onError,
    });
  };

  return (
    <Card>
      <CardHeader
        title={rule ? `Edit rule ${rule.name}` : 'New rule'}
        subtitle="When something happens to a bug that matches, do something. Try it on the last 30 days before you save it."
      />
      <form
        aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'}
        className="grid gap-5 px-5 py-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Rule name"
            value={name}
            maxLength={80}
            placeholder="e.g. Triage high priority"
            onChange={(e) => {
              setName(e.target.value);
              changed();
            }}
          />
          {fixedProject || rule ? null : (
            <SelectField
              label="Project"
              value={projectId}
              options={[
                { value: '', label: 'Every project' },
                ...(projects.data?.projects ?? []).map((p) => ({ value: p._id, label: `${p.key} · ${p.name}` })),
              ]}
              onChange={(e) => {
                setProjectId(e.target.value);
                changed();
              }}
            />
          )}
          <SelectField
            label="When"
            value={event}
            options={options(automationTriggerNames, triggerNames)}
            onChange={(e) => {
              setEvent(e.target.value as AutomationTrigger);
              changed();
            }}
          />
        </div>

        <ConditionsEditor
          conditions={conditions}
          fieldOptions={fieldOptions}
          onChange={(next) => {
            setConditions(next);
            changed();
          }}
        />

        <fieldset className="grid gap-3">
          <legend className="mb-2 text-sm font-semibold text-slate-800">Then</legend>
          {actions.map((row, index) => (
            <ActionEditor
              key={row.id}
              index={index}
              action={row.action}
              projectId={projectId}
              customFields={custom.map((f) => f.key)}
              onChange={(next) => {
                setActions(actions.map((a, i) => (i === index ? { ...a, action: next } : a)));
                changed();
              }}
              onRemove={() => {
                setActions(actions.filter((_, i) => i !== index));
                changed();
              }}
            />
          ))}
          <Button
            variant="secondary"
            size="sm"
            className="justify-self-start"
            icon={<Plus className="size-4" aria-hidden="true" />}
            onClick={() => {
              setActions([...actions, { id: rowId(), action: blankAction('comment') }]);
              changed();
            }}
          >
            Add action
          </Button>
        </fieldset>

        {problem ? (
          <p role="alert" className="text-sm text-rose-700">
            {problem}
          </p>
        ) : null}
        {simulation ? <SimulationResult simulation={simulation} /> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            variant="secondary"
            icon={<FlaskConical className="size-4" aria-hidden="true" />}
            isLoading={isSimulating}
            onClick={() => void simulate()}
          >
            Try on the last 30 days
          </Button>
          {rule ? (
            <Button variant="secondary" onClick={() => onDone?.()}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" isLoading={create.isPending || update.isPending}>
            Save rule
          </Button>
        </div>
      </form>
    </Card>
  );
}

function SimulationResult({ simulation }: { simulation: Simulation }) {
  const shown = simulation.actions.slice(0, 10);
  return (
    <section
      aria-label="What it would have done"
      className="rounded-lg bg-slate-50 px-4 py-3 text-sm ring-1 ring-slate-200"
    >
      <p className="font-medium text-slate-900">
        Over the last 30 days it would have matched {simulation.matched} {simulation.matched === 1 ? 'event' : 'events'}{' '}
        and done {simulation.actions.length} {simulation.actions.length === 1 ? 'thing' : 'things'}
        {simulation.truncated ? ' (and more)' : ''}.
      </p>
      {shown.length > 0 ? (
        <ul className="mt-2 space-y-1 text-slate-700">
          {shown.map((a) => (
            <li key={`${a.bugId}:${a.at}:${a.action.type}`}>
              <span className="font-mono text-xs">{a.key ?? a.bugId.slice(0, 8)}</span> ·{' '}
              {actionNames[a.action.type].toLowerCase()}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ActionEditor({
  index,
  action,
  projectId,
  customFields,
  onChange,
  onRemove,
}: {
  index: number;
  action: AutomationAction;
  projectId: string;
  customFields: string[];
  onChange: (action: AutomationAction) => void;
  onRemove: () => void;
}) {
  const labels = useQuery({ ...labelsQuery(), enabled: action.type === 'add_label' || action.type === 'remove_label' });
  const developers = useQuery({ ...developersQuery(), enabled: action.type === 'assign' });
  const milestones = useQuery({
    ...milestonesQuery(projectId),
    enabled: action.type === 'set_milestone' && !!projectId,
  });
  const n = index + 1;
  let detail: React.ReactNode = null;
  switch (action.type) {
    case 'set_field':
      detail = (
        <>
          <SelectField
            label={`Field of action ${n}`}
            value={action.field}
            options={options(['priority', 'severity', 'module', ...customFields])}
            onChange={(e) => onChange({ ...action, field: e.target.value })}
          />
          <TextField
            label={`Value of action ${n}`}
            value={action.value === null ? '' : String(action.value)}
            onChange={(e) => onChange({ ...action, value: e.target.value === '' ? null : e.target.value })}
          />
        </>
      );
      break;
    case 'set_status':
      detail = (
        <SelectField
          label={`Status of action ${n}`}
          value={action.status}
          options={options(['Open', 'In Progress', 'Closed'])}
          onChange={(e) => onChange({ ...action, status: e.target.value as 'Open' })}
        />
      );
      break;
    case 'assign':
      detail = (
        <SelectField
          label={`Developer of action ${n}`}
          value={action.userIds[0] ?? ''}
          options={[
            { value: '', label: 'Choose a developer' },
            ...(developers.data ?? []).map((d) => ({ value: d._id, label: d.name })),
          ]}
          onChange={(e) => onChange({ ...action, userIds: e.target.value ? [e.target.value] : [] })}
        />
      );
      break;
    case 'add_label':
    case 'remove_label':
      detail = (
        <SelectField
          label={`Label of action ${n}`}
          value={action.labelId}
          options={[
            { value: '', label: 'Choose a label' },
            ...(labels.data?.labels ?? []).map((l) => ({ value: l._id, label: l.name })),
          ]}
          onChange={(e) => onChange({ ...action, labelId: e.target.value })}
        />
      );
      break;
    case 'comment':
      detail = (
        <TextField
          label={`Comment of action ${n}`}
          value={action.body}
          maxLength={5000}
          onChange={(e) => onChange({ ...action, body: e.target.value })}
        />
      );
      break;
    case 'notify':
      detail = (
        <SelectField
          label={`Whom action ${n} notifies`}
          value={action.role ?? 'admin'}
          options={options(notifyRoles, { admin: 'Every admin', developer: 'Every developer', tester: 'Every tester' })}
          onChange={(e) => onChange({ type: 'notify', role: e.target.value as 'admin' })}
        />
      );
      break;
    case 'set_milestone':
      detail = (
        <SelectField
          label={`Milestone of action ${n}`}
          value={action.milestoneId ?? ''}
          options={[
            { value: '', label: projectId ? 'No milestone' : 'Choose a project first' },
            ...(milestones.data?.milestones ?? []).map((m) => ({ value: m._id, label: m.name })),
          ]}
          onChange={(e) => onChange({ ...action, milestoneId: e.target.value || null })}
        />
      );
      break;
  }
  return (
    <div className="grid grid-cols-1 items-end gap-2 sm:grid-cols-[12rem_1fr_1fr_auto]">
      <SelectField
        label={`Action ${n}`}
        value={action.type}
        options={options(actionTypes, actionNames)}
        onChange={(e) => onChange(blankAction(e.target.value as AutomationAction['type']))}
      />
      {detail}
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Remove action ${n}`}
        icon={<X className="size-4" aria-hidden="true" />}
        onClick={onRemove}
      />
    </div>
  );
}

function RuleRow({ rule }: { rule: Automation }) {
  const update = useUpdateAutomation();
  const remove = useDeleteAutomation();
  const [showRuns, setShowRuns] = useState(false);
  const [isEditing, setEditing] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  return (
    <li className="grid gap-2 px-5 py-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
            {rule.name}
            {rule.paused ? <Badge tone="rose">Paused after failures</Badge> : null}
            {!rule.enabled && !rule.paused ? <Badge>Off</Badge> : null}
          </p>
          <p className="text-sm wrap-anywhere text-slate-600">{ruleSummary(rule)}</p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-1">
          <label className="inline-flex items-center gap-2 px-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 accent-brand-600"
              checked={rule.enabled}
              disabled={update.isPending}
              onChange={(e) =>
                update.mutate(
                  { id: rule._id, changes: { enabled: e.target.checked } },
                  { onError: (error) => notify.error(messageOf(error, 'Could not switch the rule')) },
                )
              }
            />
            On
          </label>
          <Button variant="ghost" size="sm" onClick={() => setEditing((v) => !v)} aria-expanded={isEditing}>
            Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setShowRuns((v) => !v)} aria-expanded={showRuns}>
            Run log
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="hover:text-rose-700"
            icon={<Trash2 className="size-4" aria-hidden="true" />}
            aria-label={`Delete ${rule.name}`}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        </div>
      </div>
      {isEditing ? <RuleEditor rule={rule} onDone={() => setEditing(false)} /> : null}
      {showRuns ? <RunLog ruleId={rule._id} /> : null}
      <ConfirmModal
        isOpen={isConfirming}
        title={`Delete the rule ${rule.name}?`}
        confirmLabel="Delete rule"
        isBusy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(rule._id, {
            onSuccess: () => {
              notify.success(`Rule ${rule.name} deleted`);
              setConfirming(false);
            },
            onError: (error) => notify.error(messageOf(error, 'Could not delete the rule')),
          })
        }
      >
        It acts no more. What it did stays in the bugs’ histories.
      </ConfirmModal>
    </li>
  );
}

function RunLog({ ruleId }: { ruleId: string }) {
  const runs = useQuery(automationRunsQuery(ruleId));
  const list = runs.data?.runs ?? [];
  if (runs.isPending) return <p className="text-sm text-slate-500">Loading…</p>;
  if (list.length === 0) return <p className="text-sm text-slate-500">It has not acted yet.</p>;
  return (
    <ol aria-label="Run log" className="space-y-1 rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200">
      {list.map((run) => (
        <li key={`${run.bugId}-${run.at}`} className="flex flex-wrap gap-x-2">
          <time className="text-slate-500" dateTime={run.at}>
            {new Date(run.at).toLocaleString()}
          </time>
          {run.key ? (
            <Link
              to="/bugs/$number"
              params={{ number: run.key }}
              className="font-mono font-medium text-brand-700 hover:underline"
            >
              {run.key}
            </Link>
          ) : (
            <span className="font-mono text-slate-600">{run.bugId.slice(0, 8)}</span>
          )}
          <span className={run.failed ? 'text-rose-700' : 'text-slate-700'}>
            {run.outcomes
              .map(
                (o) =>
                  `${actionNames[o.type as AutomationAction['type']] ?? o.type}: ${o.outcome}${o.message ? ` (${o.message})` : ''}`,
              )
              .join('; ')}
          </span>
        </li>
      ))}
    </ol>
  );
}
