import { useQuery } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { ChecklistItemText, ProgressBar, StepCheckbox } from '../../../components/bug-detail';
import { BugFiles } from '../../../components/bug-files/bug-files';
import { BugPlanning } from '../../../components/planning/bug-planning';
import { BugRelations } from '../../../components/planning/bug-relations';
import { BugSlaCard } from '../../../components/time/bug-sla';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { cx } from '../../../components/ui/cx';
import { controlClass } from '../../../components/ui/field';
import { checklistProgress } from '../../../lib/format';
import { toggleChecklistItem, useUpdateBug, useUpdateChecklist } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import { profileQuery } from '../../../lib/session';
import type { Bug } from '../../../lib/types';
import { type OnSaved, onEnter, type Saved, savedFrom } from './admin-bug-extras-shared';
import { LinksCard } from './admin-bug-links';

// The archive control and the bug's page take these from here, beside AdminBugExtras.
export { type OwnSave, savedFrom } from './admin-bug-extras-shared';

/**
 * What the admin's form does not hold but the bug has (issue 40: the admin's bug page showed
 * none of it): its steps (ticked, added, removed in place), its links (added, removed) and
 * its files. Each change is saved at once, apart from the form; `onSaved` hands the form the
 * bug's new version so that our own change is not taken for someone else's.
 */
export function AdminBugExtras({ bug, onSaved }: { bug: Bug; onSaved: OnSaved }) {
  return (
    <div className="mt-6 grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
      <div className="min-w-0 space-y-6 lg:col-span-2">
        <StepsCard bug={bug} onSaved={onSaved} />
        <BugRelations bug={bug} viewAs="admin" onSaved={savedFrom(bug, onSaved)} />
      </div>
      <div className="min-w-0 space-y-6">
        <BugPlanning bug={bug} viewAs="admin" onSaved={savedFrom(bug, onSaved)} />
        <BugSlaCard bug={bug} />
        <LinksCard bug={bug} onSaved={onSaved} />
        <BugFiles bug={bug} onSaved={onSaved} />
      </div>
    </div>
  );
}

/** The steps as the edit endpoint takes them: each kept step by its id, new ones by their text. */
const stepsPayload = (steps: Bug['checklist']) =>
  steps.map((item) => ({ ...(item._id ? { _id: item._id } : {}), text: item.text, completed: item.completed }));

function StepsCard({ bug, onSaved }: { bug: Bug; onSaved: OnSaved }) {
  const { data: user } = useQuery(profileQuery());
  const tick = useUpdateChecklist(user ?? { _id: '', name: '' });
  const edit = useUpdateBug(bug._id);
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const done = bug.checklist.filter((item) => item.completed).length;

  const saveSteps = async (steps: Bug['checklist'], success: string) => {
    try {
      savedFrom(bug, onSaved)(await edit.mutateAsync({ payload: { checklist: stepsPayload(steps) } }));
      notify.success(success);
      return true;
    } catch {
      notify.error('Failed to update checklist');
      return false;
    }
  };
  const addStep = async () => {
    const text = draft.trim();
    if (!text) return;
    const step = { text, completed: false, completedBy: null, completedAt: null } as Bug['checklist'][number];
    if (await saveSteps([...bug.checklist, step], 'Step added')) setDraft('');
  };

  return (
    <Card>
      <CardHeader title="Steps to Reproduce" subtitle={`${done} of ${bug.checklist.length} completed`} />
      <div className="space-y-4 p-5">
        <ProgressBar percent={checklistProgress(bug.checklist)} />
        {bug.checklist.length === 0 ? (
          <p className="text-sm text-slate-500">No checklist items</p>
        ) : (
          <ol className="space-y-2">
            {bug.checklist.map((item, index) => (
              <li
                key={item._id ?? index}
                className="flex items-start gap-3 rounded-lg border border-slate-100 px-3 py-2.5"
              >
                <StepCheckbox
                  item={item}
                  disabled={!user}
                  onToggle={() =>
                    user &&
                    tick.mutate(
                      { id: bug._id, checklist: toggleChecklistItem(bug.checklist, index, user, new Date()) },
                      { onSuccess: (answer) => savedFrom(bug, onSaved)(answer as Saved) },
                    )
                  }
                />
                <ChecklistItemText item={item} showCompletion />
                <button
                  type="button"
                  aria-label={`Remove step ${index + 1}`}
                  disabled={edit.isPending}
                  onClick={() =>
                    void saveSteps(
                      bug.checklist.filter((_, i) => i !== index),
                      'Step removed',
                    )
                  }
                  className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-rose-600"
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ol>
        )}
        <div className="flex gap-2">
          <label htmlFor={inputId} className="sr-only">
            New step
          </label>
          <input
            id={inputId}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onEnter(() => void addStep())}
            placeholder="Add a step and press Enter"
            className={cx(controlClass(), 'h-10 min-w-0 flex-1')}
          />
          <Button
            variant="secondary"
            onClick={() => void addStep()}
            isLoading={edit.isPending}
            icon={<Plus className="size-4" />}
          >
            Add step
          </Button>
        </div>
      </div>
    </Card>
  );
}
