import { statusDisplayName, statusDisplayNamesFor, statusFromInput } from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Check, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { AssignDevelopersDialog } from '../../../components/assign-developers-dialog';
import {
  bugToForm,
  isStaleEdit,
  StaleEditDialog,
  useProjectFields,
  useUnsavedChangesGuard,
} from '../../../components/bug-editor';
import {
  DescriptionField,
  DueDateField,
  ModuleField,
  PriorityField,
  SeverityField,
  TitleField,
} from '../../../components/bug-fields';
import { FIX_ERRORS } from '../../../components/bug-form';
import { ConfirmModal } from '../../../components/confirm-modal';
import { CustomFieldInputs } from '../../../components/custom-fields';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { api } from '../../../lib/api';
import { type BugFormValues, dueDateToIso, type FormErrors, validateAdminUpdateFields } from '../../../lib/bug-form';
import { fieldErrors, fieldsPayload } from '../../../lib/fields';
import { useDeleteBug, useUpdateBug } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import { developersQuery } from '../../../lib/queries';
import { queryKeys } from '../../../lib/query-keys';
import { isBlockedRefusal, notifyStatusRefusal } from '../../../lib/status-refusal';
import type { Bug, UserRef } from '../../../lib/types';
import { AdminBugHeading } from './admin-bug-heading';
import { AssignedDevelopersCard } from './assigned-developers-card';

/** The admin selector offers the admin's words (Pending, In Progress, Resolved) and sends the chosen one as is. */
const statusOptions = statusDisplayNamesFor('admin').map((name) => ({ value: name, label: name }));

/**
 * The admin's View / Update Bug form (spec): details, status, priority, severity, due date and
 * assignees in one save; a stale save asks to reload or overwrite. Steps, links and files are
 * saved beside it (AdminBugExtras), and `ownSaves` keeps those from counting as someone else's.
 */
export function AdminBugForm({
  bug,
  ownSaves,
  onReloaded,
  actions,
  labels,
}: {
  bug: Bug;
  ownSaves: ReadonlyMap<number, number>;
  onReloaded: () => void;
  /** Beside the heading: what the page does to the bug as a whole (archive). */
  actions?: ReactNode;
  /** Under the title: the bug's labels and their picker. */
  labels?: ReactNode;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const update = useUpdateBug(bug._id);
  const remove = useDeleteBug();
  const developers = useQuery(developersQuery());
  const [savedValues, setSavedValues] = useState<BugFormValues>(() => ({
    ...bugToForm(bug),
    status: statusDisplayName(bug.status, 'admin'),
  }));
  const [values, setValues] = useState<BugFormValues>(savedValues);
  const [errors, setErrors] = useState<FormErrors>({});
  // The project's custom fields (issue 37), each with its error under it.
  const custom = useProjectFields(bug.projectId, [bug.createdBy, ...bug.assignedTo]);
  const [customErrors, setCustomErrors] = useState<Record<string, string | undefined>>({});
  const guard = useUnsavedChangesGuard();
  const isDirty = JSON.stringify(values) !== JSON.stringify(savedValues);
  useEffect(() => guard.setDirty(isDirty), [guard.setDirty, isDirty]);
  const [isAssignOpen, setAssignOpen] = useState(false);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const [isSaved, setSaved] = useState(false);

  const set = <K extends keyof BugFormValues>(field: K, value: BugFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
    setSaved(false);
  };
  const fields = { values, errors, set };

  const people: UserRef[] = [...(developers.data ?? [])];
  for (const user of bug.assignedTo) if (!people.some((p) => p._id === user._id)) people.push(user);
  const assigned = values.assignedTo.map((id) => people.find((p) => p._id === id)).filter((u): u is UserRef => !!u);

  const [stale, setStale] = useState(false);
  // The version this form started from: live updates refresh `bug`, but a save must still
  // say which bug it edited, so someone else's change in between is a 409, not overwritten.
  const [baseVersion, setBaseVersion] = useState(bug.version);
  const currentVersion = () => {
    let version = baseVersion;
    for (let next = ownSaves.get(version); next !== undefined && next > version; next = ownSaves.get(version)) {
      version = next;
    }
    return version;
  };

  /**
   * Saves the form. `closeAnyway`: the admin's answer to a close refused because open bugs block
   * this one: the details go without the status, then the status with `override` (api.md
   * "Relations and sub-bugs"; only the status endpoint takes it).
   */
  const submit = async (event: FormEvent | null, overwrite = false, closeAnyway = false) => {
    event?.preventDefault();
    // Each failure under its own field (aria-invalid); the toast only says there are some.
    const found = validateAdminUpdateFields(values);
    const customFound = fieldErrors(custom.fields, values.fields, true);
    setErrors(found);
    setCustomErrors(customFound);
    if (Object.values(found).some(Boolean) || Object.values(customFound).some(Boolean)) {
      notify.error(FIX_ERRORS);
      return;
    }
    try {
      const answer = await update.mutateAsync({
        // Overwriting after a stale save sends no version: the server takes this form as it is.
        ...(overwrite ? {} : { version: currentVersion() }),
        payload: {
          title: values.title.trim(),
          description: values.description.trim(),
          module: values.module.trim() || null,
          priority: values.priority,
          severity: values.severity,
          ...(closeAnyway ? {} : { status: values.status }),
          dueDate: dueDateToIso(values.dueDate),
          assignedTo: values.assignedTo,
          ...(custom.fields.length > 0 ? { fields: fieldsPayload(custom.fields, values.fields, true) } : {}),
        },
      });
      // The details endpoint may leave status alone; the status endpoint is the one that owns it.
      const wanted = statusFromInput(values.status);
      let version = answer?.bug?.version ?? currentVersion();
      if (answer?.bug?.status !== wanted) {
        const moved = await api<{ bug?: Bug }>(`/api/bugs/${bug._id}/status`, {
          method: 'PUT',
          body: closeAnyway ? { status: values.status, override: true } : { status: values.status },
        });
        version = moved?.bug?.version ?? version;
        await queryClient.invalidateQueries({ queryKey: queryKeys.bug.detail(bug._id) });
      }
      setBaseVersion(version);
      notify.success('Bug Updated Successfully');
      setStale(false);
      setSavedValues(values);
      setSaved(true);
    } catch (error) {
      // Checked first: a blocked close is a 409 too, but not someone else's edit.
      if (isBlockedRefusal(error))
        notifyStatusRefusal(error, {
          fallback: 'Failed to update bug',
          isAdmin: true,
          onOverride: () => void submit(null, overwrite, true),
        });
      else if (isStaleEdit(error)) setStale(true);
      else notify.error('Failed to update bug');
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <AdminBugHeading bug={bug} actions={actions} labels={labels} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <Card className="grid content-start gap-5 p-6 lg:col-span-2">
          <TitleField {...fields} />
          <DescriptionField {...fields} rows={7} />
          <ModuleField {...fields} />
          <CustomFieldInputs
            fields={custom.fields}
            values={values.fields}
            errors={customErrors}
            people={custom.people}
            onChange={(key, value) => {
              set('fields', { ...values.fields, [key]: value });
              setCustomErrors((current) => (current[key] ? { ...current, [key]: undefined } : current));
            }}
          />
        </Card>
        <div className="space-y-6">
          <Card className="grid gap-5 p-6">
            <SelectField
              label="Status"
              name="status"
              value={values.status}
              options={statusOptions}
              onChange={(event) => set('status', event.target.value)}
            />
            <PriorityField {...fields} />
            <SeverityField {...fields} />
            <DueDateField {...fields} />
          </Card>
          <AssignedDevelopersCard assigned={assigned} error={errors.assignedTo} onAssign={() => setAssignOpen(true)} />
        </div>
      </div>
      <div className="sticky bottom-0 mt-6 flex flex-col-reverse gap-2 border-t border-slate-200 bg-slate-50/95 py-4 backdrop-blur sm:flex-row sm:items-center">
        <Button variant="danger" onClick={() => setDeleteOpen(true)} icon={<Trash2 className="size-4" />}>
          Delete Bug
        </Button>
        <div className="flex flex-col-reverse items-stretch gap-2 sm:ml-auto sm:flex-row sm:items-center">
          {isSaved ? (
            <span
              className="inline-flex items-center justify-center gap-1.5 text-sm font-medium text-lime-700"
              role="status"
            >
              <Check className="size-4" /> Saved
            </span>
          ) : null}
          <Button variant="secondary" onClick={() => void navigate({ to: '/admin/bugs' })}>
            Cancel
          </Button>
          <Button type="submit" isLoading={update.isPending}>
            Update Bug
          </Button>
        </div>
      </div>

      <AssignDevelopersDialog
        isOpen={isAssignOpen}
        initial={values.assignedTo}
        known={bug.assignedTo}
        people={people}
        onClose={() => setAssignOpen(false)}
        onDone={(ids) => {
          set('assignedTo', ids);
          setAssignOpen(false);
        }}
      />

      <ConfirmModal
        isOpen={isDeleteOpen}
        title="Delete Bug"
        confirmLabel="Delete Bug"
        isBusy={remove.isPending}
        onClose={() => setDeleteOpen(false)}
        onConfirm={() =>
          remove.mutate(bug._id, {
            onSuccess: () => {
              notify.success('Bug deleted successfully');
              guard.setDirty(false);
              void navigate({ to: '/admin/bugs' });
            },
            onError: () => notify.error('Failed to delete bug'),
          })
        }
      >
        Are you sure you want to delete “{bug.title}”? This cannot be undone.
      </ConfirmModal>
      <StaleEditDialog
        isOpen={stale}
        isBusy={update.isPending}
        onClose={() => setStale(false)}
        onOverwrite={() => void submit(null, true)}
        onReload={async () => {
          setStale(false);
          await queryClient.refetchQueries({ queryKey: queryKeys.bug.detail(bug._id) });
          guard.setDirty(false);
          onReloaded();
        }}
      />
      {guard.prompt}
    </form>
  );
}
