import { bugDefaults } from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useBlocker, useCanGoBack, useNavigate, useRouter } from '@tanstack/react-router';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { ApiError } from '../lib/api';
import { type BugFormValues, describeServerDetails, isoToDay, toBugPayload } from '../lib/bug-form';
import { currentProjectKey } from '../lib/current-project';
import { fieldsToForm, projectFieldsQuery } from '../lib/fields';
import { useCreateBug, useDeleteBug, useUpdateBug } from '../lib/mutations';
import { notify } from '../lib/notify';
import { projectsQuery } from '../lib/projects';
import { developersQuery } from '../lib/queries';
import { queryKeys } from '../lib/query-keys';
import { profileQuery } from '../lib/session';
import type { Bug } from '../lib/types';
import { BugForm } from './bug-form';
import { ConfirmModal } from './confirm-modal';
import { isStaleEdit, StaleEditDialog } from './stale-edit-dialog';
import { useSuggestionTracker } from './triage-suggestions/suggestion-usage';
import { TriageSuggestionsPanel } from './triage-suggestions/triage-suggestions';
import { SelectField } from './ui/field';

// Moved to their own file; the admin's form still takes them from here with the rest.
export { isStaleEdit, StaleEditDialog } from './stale-edit-dialog';

export const CREATE_FAILED = 'Failed to create bug. Please try again.';

/** The create-failure toast text: server details, else the server's message, else the default. */
export function createFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.details.length > 0) return describeServerDetails(error.details);
    if (error.hasServerMessage) return error.message;
  }
  return CREATE_FAILED;
}

/** A navigation as the guard sees it: where the page is and where it would go. */
export type GuardedMove = {
  current: { pathname: string; search: unknown };
  next: { pathname: string; search: unknown };
};

/**
 * Warns before a form with unsaved changes is left: a navigation in the app asks in a
 * dialog, closing or reloading the tab gets the browser's own question (beforeunload).
 * The form reports whether it is dirty with `setDirty`; a page calls `setDirty(false)`
 * right before it leaves on purpose (after a save or a delete). `prompt` goes in the page.
 * `letThrough` names moves that keep the form on screen (its text survives them), and
 * `message` says what would be lost when it is not a form (a half-written comment).
 */
export function useUnsavedChangesGuard(
  options: { letThrough?: (move: GuardedMove) => boolean; message?: ReactNode } = {},
): { setDirty: (isDirty: boolean) => void; prompt: ReactNode } {
  // A ref, not state: the page may leave in the same tick in which the form stops being dirty.
  const isDirty = useRef(false);
  const letThrough = useRef(options.letThrough);
  letThrough.current = options.letThrough;
  const shouldBlock = useCallback((move?: GuardedMove) => isDirty.current && !(move && letThrough.current?.(move)), []);
  const isDirtyNow = useCallback(() => isDirty.current, []);
  const blocker = useBlocker({ shouldBlockFn: shouldBlock, enableBeforeUnload: isDirtyNow, withResolver: true });
  const setDirty = useCallback((value: boolean) => {
    isDirty.current = value;
  }, []);
  const prompt = (
    <ConfirmModal
      isOpen={blocker.status === 'blocked'}
      title="Discard unsaved changes?"
      confirmLabel="Discard changes"
      onClose={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      {options.message ?? 'You have changes in this form that are not saved. Leave the page and lose them?'}
    </ConfirmModal>
  );
  return { setDirty, prompt };
}

/** Cancel goes back to where the user came from, or to `fallback` when the form was opened directly. */
function useGoBack(fallback: string) {
  const router = useRouter();
  const navigate = useNavigate();
  const canGoBack = useCanGoBack();
  return () => {
    if (canGoBack) router.history.back();
    else void navigate({ to: fallback });
  };
}

/** After reporting, the reporter lands on the new bug (`openBug` names its page). */
export function ReportBugForm({
  afterCreate,
  openBug,
  project: asked,
}: {
  afterCreate: string;
  openBug?: (id: string) => string;
  /** The project the page was opened for (`?project=KEY`); else the current one, else the default. */
  project?: string | undefined;
}) {
  const navigate = useNavigate();
  const create = useCreateBug();
  const guard = useUnsavedChangesGuard();
  const goBack = useGoBack(afterCreate);
  const tracker = useSuggestionTracker();
  const { data: me } = useQuery(profileQuery());
  const choice = useProjectChoice(asked);
  const custom = useProjectFields(choice.chosen?._id, choice.chosen?.members.map((m) => m.user) ?? []);
  return (
    <>
      <BugForm
        projectFields={custom.fields}
        fieldPeople={custom.people}
        isEditing={false}
        isSaving={create.isPending}
        onDirtyChange={guard.setDirty}
        onCancel={goBack}
        header={choice.field}
        assignableIds={choice.chosen?.private ? new Set(choice.chosen.members.map((m) => m.user._id)) : undefined}
        assigneesOptional={
          choice.chosen?.access === 'team'
            ? `Optional here: with nobody assigned, the bug waits in ${choice.chosen.key}’s triage and its leads are told.`
            : undefined
        }
        renderSuggestions={({ values, apply }) =>
          openBug && me ? (
            <TriageSuggestionsPanel
              values={values}
              apply={apply}
              tracker={tracker}
              bugLink={openBug}
              viewAs={me.role}
            />
          ) : null
        }
        onSubmit={(values) =>
          // Which suggestions were shown and taken rides along, into the report's event metadata.
          create.mutate(
            {
              ...toBugPayload(values, { defs: custom.fields, editing: false }),
              suggestions: tracker.usageFor(values),
              ...(choice.chosen ? { projectId: choice.chosen._id } : {}),
            },
            {
              onSuccess: (answer) => {
                notify.success('Bug Reported Successfully');
                guard.setDirty(false);
                const id = answer?.bug?._id;
                void navigate({ to: id && openBug ? openBug(id) : afterCreate });
              },
              onError: (error) => notify.error(createFailureText(error)),
            },
          )
        }
      />
      {guard.prompt}
    </>
  );
}

/**
 * Which project a report goes into (api.md "Projects"): the projects the reporter may see and
 * that take bugs, or "Default project" (the server's choice, as a spec client gets). Starts in the
 * project the page was opened for, else the current one (the sidebar's), else the default.
 */
function useProjectChoice(asked: string | undefined) {
  const { data } = useQuery(projectsQuery());
  const open = (data?.projects ?? []).filter((p) => !p.archived);
  const [picked, setPicked] = useState<string | null>(null);
  const wanted = picked ?? asked ?? currentProjectKey() ?? '';
  const chosen = open.find((p) => p.key === wanted) ?? null;
  const field =
    open.length > 1 ? (
      <SelectField
        label="Project"
        value={chosen?.key ?? ''}
        onChange={(event) => setPicked(event.target.value)}
        hint={chosen ? `It will be ${chosen.key}-… in ${chosen.name}` : 'Where bugs go when no project is chosen'}
        options={[
          { value: '', label: 'Default project' },
          ...open.map((p) => ({ value: p.key, label: `${p.key} · ${p.name}` })),
        ]}
      />
    ) : null;
  return { chosen, field };
}

/**
 * A project's custom fields for a form (none while no project is chosen), and whom its user
 * fields may name: the project's members and the developers.
 */
export function useProjectFields(projectId: string | undefined, members: readonly { _id: string; name: string }[]) {
  const { data } = useQuery({ ...projectFieldsQuery(projectId ?? ''), enabled: !!projectId });
  const fields = projectId ? (data?.fields ?? []) : [];
  const hasUserField = fields.some((f) => f.type === 'user');
  const { data: developers } = useQuery({ ...developersQuery(), enabled: hasUserField });
  const people = new Map<string, { _id: string; name: string }>();
  for (const person of [...members, ...(developers ?? [])])
    people.set(person._id, { _id: person._id, name: person.name });
  return { fields, people: [...people.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}

export function bugToForm(bug: Bug): BugFormValues {
  return {
    title: bug.title ?? '',
    description: bug.description ?? '',
    priority: bug.priority ?? bugDefaults.priority,
    severity: bug.severity ?? bugDefaults.severity,
    status: bug.status ?? bugDefaults.status,
    module: bug.module ?? '',
    dueDate: isoToDay(bug.dueDate),
    assignedTo: (bug.assignedTo ?? []).map((user) => user._id),
    checklist: (bug.checklist ?? []).map((item) => ({
      ...(item._id ? { _id: item._id } : {}),
      text: item.text,
      completed: item.completed,
    })),
    attachments: [...(bug.attachments ?? [])],
    fields: fieldsToForm(bug.fields),
  };
}

/** The tester's edit form for one loaded bug: Update Bug and Delete Bug. */
export function EditBugForm({ bug, afterSave, afterDelete }: { bug: Bug; afterSave: string; afterDelete: string }) {
  const navigate = useNavigate();
  const update = useUpdateBug(bug._id);
  const remove = useDeleteBug();
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const [stale, setStale] = useState<BugFormValues | null>(null);
  const [reloads, setReloads] = useState(0);
  // The version the form was filled from (live updates change `bug` under it): saving
  // over someone else's newer change is a 409 and the choice below, never silent.
  const [baseVersion, setBaseVersion] = useState(bug.version);
  const client = useQueryClient();
  const guard = useUnsavedChangesGuard();
  const goBack = useGoBack(afterSave);
  const custom = useProjectFields(bug.projectId, [bug.createdBy, ...bug.assignedTo]);
  const save = (values: BugFormValues, version: number | undefined) =>
    update.mutate(
      {
        payload: toBugPayload(values, { defs: custom.fields, editing: true }),
        ...(version === undefined ? {} : { version }),
      },
      {
        onSuccess: () => {
          notify.success('Bug Updated Successfully');
          setStale(null);
          guard.setDirty(false);
          void navigate({ to: afterSave });
        },
        onError: (error) => (isStaleEdit(error) ? setStale(values) : notify.error('Failed to update bug')),
      },
    );
  return (
    <>
      <BugForm
        key={`${bug._id}:${reloads}`}
        initial={bugToForm(bug)}
        projectFields={custom.fields}
        fieldPeople={custom.people}
        knownDevelopers={bug.assignedTo}
        isEditing
        dueDateRequired
        isSaving={update.isPending}
        isDeleting={remove.isPending}
        onDirtyChange={guard.setDirty}
        onCancel={goBack}
        onDelete={() => setConfirmOpen(true)}
        onSubmit={(values) => save(values, baseVersion)}
      />
      <StaleEditDialog
        isOpen={stale !== null}
        isBusy={update.isPending}
        onClose={() => setStale(null)}
        onOverwrite={() => stale && save(stale, undefined)}
        onReload={async () => {
          setStale(null);
          await client.refetchQueries({ queryKey: queryKeys.bug.detail(bug._id) });
          guard.setDirty(false);
          setBaseVersion(client.getQueryData<Bug>(queryKeys.bug.detail(bug._id))?.version ?? bug.version);
          setReloads((n) => n + 1);
        }}
      />
      <ConfirmModal
        isOpen={isConfirmOpen}
        title="Delete Bug"
        confirmLabel="Delete Bug"
        isBusy={remove.isPending}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() =>
          remove.mutate(bug._id, {
            onSuccess: () => {
              notify.success('Bug deleted successfully');
              setConfirmOpen(false);
              guard.setDirty(false);
              void navigate({ to: afterDelete });
            },
            onError: () => notify.error('Failed to delete bug'),
          })
        }
      >
        Are you sure you want to delete “{bug.title}”? This cannot be undone.
      </ConfirmModal>
      {guard.prompt}
    </>
  );
}
