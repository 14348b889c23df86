import { bugStatuses, type StateDto, stateLimits } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { cx } from '../../../components/ui/cx';
import { controlClass } from '../../../components/ui/field';
import { messageOf } from '../../../lib/api';
import { projectStatesQuery, type StateDraft, useSetStates } from '../../../lib/fields';
import { notify } from '../../../lib/notify';

const toDraft = (s: StateDto): StateDraft => ({ _id: s._id, name: s.name, category: s.category, color: s.color });

/**
 * A project's workflow states (issue 37), in board order: its admins and leads add, rename,
 * reorder, recolour and remove them (a state that holds bugs stays until they move), each in one
 * of the three categories, so every count and spec client keeps working. Saved whole.
 */
export function ProjectStates({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const { data } = useQuery(projectStatesQuery(projectId));
  if (!data) return null;
  // Keyed by what is stored: a save (or a live change) resets the editor to it.
  return (
    <StatesEditor key={JSON.stringify(data.states)} projectId={projectId} stored={data.states} canManage={canManage} />
  );
}

function StatesEditor({ projectId, stored, canManage }: { projectId: string; stored: StateDto[]; canManage: boolean }) {
  const [states, setStates] = useState<StateDraft[]>(() => stored.map(toDraft));
  const [error, setError] = useState<string | null>(null);
  const save = useSetStates(projectId);
  const isDirty = JSON.stringify(states) !== JSON.stringify(stored.map(toDraft));
  const change = (index: number, patch: Partial<StateDraft>) =>
    setStates((all) => all.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  const move = (index: number, by: number) =>
    setStates((all) => {
      const next = [...all];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item!);
      return next;
    });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      // Awaited, not a mutate callback: the saved list remounts this editor before those would run.
      await save.mutateAsync(states);
      notify.success('States saved');
    } catch (failure) {
      setError(messageOf(failure, 'Could not save the states'));
    }
  };
  return (
    <Card>
      <CardHeader
        title="Workflow states"
        subtitle="The board’s columns, in order. Each belongs to Open, In Progress or Closed, which is the status lists, counts and charts show."
      />
      <form onSubmit={submit} noValidate className="border-t border-slate-100">
        <ol aria-label="States" className="divide-y divide-slate-100">
          {states.map((state, index) => (
            <li key={state._id ?? `new-${index}`} className="flex flex-wrap items-center gap-2 px-5 py-3">
              <input
                type="color"
                aria-label={`Colour of ${state.name || 'the new state'}`}
                value={state.color}
                disabled={!canManage}
                onChange={(event) => change(index, { color: event.target.value })}
                className="h-9 w-10 shrink-0 cursor-pointer rounded border border-slate-300 bg-white p-1 disabled:cursor-default"
              />
              <input
                aria-label={`Name of state ${index + 1}`}
                value={state.name}
                maxLength={stateLimits.nameMax}
                disabled={!canManage}
                onChange={(event) => change(index, { name: event.target.value })}
                className={cx(controlClass(), 'h-9 min-w-0 flex-1 basis-40')}
              />
              <select
                aria-label={`Category of ${state.name || 'the new state'}`}
                value={state.category}
                disabled={!canManage}
                onChange={(event) => change(index, { category: event.target.value as StateDraft['category'] })}
                className={cx(controlClass(), 'h-9 w-36')}
              >
                {bugStatuses.map((category) => (
                  <option key={category} value={category}>
                    {category}
                  </option>
                ))}
              </select>
              {canManage ? (
                <div className="flex shrink-0 gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Move ${state.name} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    icon={<ArrowUp className="size-4" />}
                  />
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Move ${state.name} down`}
                    disabled={index === states.length - 1}
                    onClick={() => move(index, 1)}
                    icon={<ArrowDown className="size-4" />}
                  />
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${state.name}`}
                    onClick={() => setStates((all) => all.filter((_, i) => i !== index))}
                    icon={<Trash2 className="size-4" />}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ol>
        {error ? (
          <p role="alert" className="px-5 pb-2 text-sm text-rose-600">
            {error}
          </p>
        ) : null}
        {canManage ? (
          <div className="flex flex-wrap gap-2 px-5 py-4">
            <Button
              variant="secondary"
              icon={<Plus className="size-4" />}
              onClick={() => setStates((all) => [...all, { name: '', category: 'In Progress', color: '#7c3aed' }])}
            >
              Add state
            </Button>
            <Button type="submit" isLoading={save.isPending} disabled={!isDirty}>
              Save states
            </Button>
            {isDirty ? (
              <Button variant="ghost" onClick={() => setStates(stored.map(toDraft))}>
                Undo changes
              </Button>
            ) : null}
          </div>
        ) : null}
      </form>
    </Card>
  );
}
