import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { messageOf } from '../../lib/api';
import { bugTitle } from '../../lib/format';
import { notify } from '../../lib/notify';
import {
  canPlanBug,
  linkedName,
  type Relation,
  type RelationType,
  relationOrder,
  relationTypes,
  relationWords,
  useAddRelation,
  useRemoveRelation,
} from '../../lib/planning';
import { profileQuery } from '../../lib/session';
import type { Bug, Role } from '../../lib/types';
import { StatusBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';
import { BugPicker } from './bug-picker';

export type OnPlanningSaved = (answer: { bug?: Bug }) => void;

/**
 * A bug's relations to other bugs (api.md "Relations and sub-bugs"), grouped by type in words,
 * each other bug by key, title and status; those who may edit the bug add and remove them.
 */
export function BugRelations({
  bug,
  viewAs,
  isEditable = true,
  onSaved,
  className,
}: {
  bug: Bug;
  viewAs: Role;
  /** False where the page shows the bug as it was (time travel). */
  isEditable?: boolean;
  onSaved?: OnPlanningSaved | undefined;
  className?: string;
}) {
  const { data: user } = useQuery(profileQuery());
  const canEdit = isEditable && canPlanBug(user, bug);
  const relations = bug.relations ?? [];
  const groups = relationOrder
    .map((type) => ({ type, items: relations.filter((r) => r.type === type) }))
    .filter((group) => group.items.length > 0);
  const [isAdding, setAdding] = useState(false);
  return (
    <Card className={cx('min-w-0', className)}>
      <CardHeader
        title="Relations"
        subtitle={
          relations.length === 0 ? undefined : `${relations.length} linked ${relations.length === 1 ? 'bug' : 'bugs'}`
        }
        action={
          canEdit && !isAdding ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<Plus className="size-4" aria-hidden="true" />}
              onClick={() => setAdding(true)}
            >
              Add relation
            </Button>
          ) : undefined
        }
      />
      <div className="space-y-4 p-5">
        {groups.length === 0 ? (
          <p className="text-sm text-slate-500">No relations to other bugs</p>
        ) : (
          <dl className="space-y-4">
            {groups.map((group) => (
              <div key={group.type} className="min-w-0">
                <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  {relationWords[group.type]}
                </dt>
                <dd className="mt-1.5">
                  <ul className="space-y-1.5" aria-label={relationWords[group.type]}>
                    {group.items.map((relation) => (
                      <RelationRow
                        key={`${relation.type}:${relation.bug._id}`}
                        bug={bug}
                        relation={relation}
                        viewAs={viewAs}
                        canEdit={canEdit}
                        onSaved={onSaved}
                      />
                    ))}
                  </ul>
                </dd>
              </div>
            ))}
          </dl>
        )}
        {canEdit && isAdding ? (
          <AddRelationForm bug={bug} viewAs={viewAs} onSaved={onSaved} onDone={() => setAdding(false)} />
        ) : null}
      </div>
    </Card>
  );
}

function RelationRow({
  bug,
  relation,
  viewAs,
  canEdit,
  onSaved,
}: {
  bug: Bug;
  relation: Relation;
  viewAs: Role;
  canEdit: boolean;
  onSaved?: OnPlanningSaved | undefined;
}) {
  const remove = useRemoveRelation(bug._id);
  const other = relation.bug;
  const name = linkedName(other);
  return (
    <li className="flex min-w-0 items-center gap-2 rounded-lg border border-slate-100 px-3 py-2">
      <Link
        to="/bugs/$number"
        params={{ number: name }}
        className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2 text-sm hover:underline"
      >
        <span className="font-mono text-xs font-semibold text-brand-700">{name}</span>
        <span className="min-w-0 text-slate-800 [overflow-wrap:anywhere]">{bugTitle(other)}</span>
      </Link>
      <StatusBadge status={other.status} viewAs={viewAs} />
      {canEdit ? (
        <button
          type="button"
          aria-label={`Remove relation: ${relationWords[relation.type]} ${name}`}
          title="Remove relation"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(
              { type: relation.type, otherId: other._id },
              {
                onSuccess: (answer) => {
                  onSaved?.(answer);
                  notify.success('Relation removed');
                },
                onError: (error) => notify.error(messageOf(error, 'Could not remove the relation')),
              },
            )
          }
          className="shrink-0 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-rose-700 disabled:opacity-50"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      ) : null}
    </li>
  );
}

function AddRelationForm({
  bug,
  viewAs,
  onSaved,
  onDone,
}: {
  bug: Bug;
  viewAs: Role;
  onSaved?: OnPlanningSaved | undefined;
  onDone: () => void;
}) {
  const add = useAddRelation(bug._id);
  const typeId = useId();
  const [type, setType] = useState<RelationType>('blocks');
  const [other, setOther] = useState<Bug | null>(null);
  const [problem, setProblem] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!other) {
      setProblem('Pick the other bug first');
      return;
    }
    setProblem('');
    add.mutate(
      { type, otherId: other._id },
      {
        onSuccess: (answer) => {
          onSaved?.(answer);
          notify.success(`${relationWords[type]} ${other.key ?? bugTitle(other)}: saved`);
          onDone();
        },
        onError: (error) => setProblem(messageOf(error, 'Could not add the relation')),
      },
    );
  };
  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      aria-label="Add relation"
    >
      <div className="space-y-1.5">
        <label htmlFor={typeId} className="block text-sm font-medium text-slate-700">
          This bug…
        </label>
        <select
          id={typeId}
          value={type}
          onChange={(event) => setType(event.target.value as RelationType)}
          className={cx(controlClass(), 'h-10 sm:w-56')}
        >
          {relationTypes.map((option) => (
            <option key={option} value={option}>
              {relationWords[option]}
            </option>
          ))}
        </select>
      </div>
      <BugPicker
        label="Other bug"
        chosen={other}
        onChoose={(picked) => {
          setOther(picked);
          setProblem('');
        }}
        exclude={[bug._id]}
        viewAs={viewAs}
      />
      {problem ? (
        <p role="alert" className="text-sm text-rose-600">
          {problem}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" isLoading={add.isPending}>
          Save relation
        </Button>
      </div>
    </form>
  );
}
