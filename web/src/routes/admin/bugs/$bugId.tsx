import {
  priorities,
  severities,
  statusDisplayName,
  statusDisplayNamesFor,
  statusFromInput,
} from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, type ErrorComponentProps, Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Check, Trash2, UserPlus } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { validateAtSearch } from '../../../components/bug-activity/at-search';
import { BugActivity } from '../../../components/bug-activity/bug-activity';
import { DeletedBugHistory } from '../../../components/bug-activity/deleted-bug-history';
import { BugCode } from '../../../components/bug-code/bug-code';
import { BugComments } from '../../../components/bug-comments/bug-comments';
import { BugDetail } from '../../../components/bug-detail';
import { BugDetailSkeleton } from '../../../components/bug-detail-skeleton';
import { bugToForm, isStaleEdit, StaleEditDialog, useUnsavedChangesGuard } from '../../../components/bug-editor';
import { FIX_ERRORS } from '../../../components/bug-form';
import { BugLoadError, bugLoadFailure, useLoadedBug } from '../../../components/bug-load-state';
import { ConfirmModal } from '../../../components/confirm-modal';
import { DeveloperPicker } from '../../../components/developer-picker';
import { AvatarStack } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { api } from '../../../lib/api';
import { type BugFormValues, dueDateToIso, type FormErrors, validateAdminUpdateFields } from '../../../lib/bug-form';
import { formatDate, reporterName } from '../../../lib/format';
import { useDeleteBug, useUpdateBug } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import { bugQuery, developersQuery } from '../../../lib/queries';
import type { Bug, UserRef } from '../../../lib/types';

export const Route = createFileRoute('/admin/bugs/$bugId')({
  validateSearch: validateAtSearch,
  loader: ({ context, params }) => context.queryClient.ensureQueryData(bugQuery(params.bugId)),
  pendingComponent: BugDetailSkeleton,
  errorComponent: AdminBugError,
  component: AdminBugPage,
});

/** The admin selector offers the admin's words (Pending, In Progress, Resolved) and sends the chosen one as is. */
const statusOptions = statusDisplayNamesFor('admin').map((name) => ({ value: name, label: name }));
const priorityOptions = priorities.map((value) => ({ value, label: value }));
const severityOptions = severities.map((value) => ({ value, label: value }));

function AdminBugError({ error }: ErrorComponentProps) {
  const { bugId } = Route.useParams();
  const answer = (
    <BugLoadError error={error} backTo="/admin/bugs" backLabel="Back to All Bugs" failedTo="/admin/bugs" />
  );
  // A deleted bug is gone from the lists, not from its history: admins still read that.
  if (bugLoadFailure(error) !== 'notFound') return answer;
  return <DeletedBugHistory bugId={bugId} viewAs="admin" fallback={answer} header={<BackToAllBugs />} />;
}

function BackToAllBugs() {
  return (
    <Link
      to="/admin/bugs"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
    >
      <ArrowLeft className="size-4" /> Back to All Bugs
    </Link>
  );
}

function AdminBugPage() {
  const { bugId } = Route.useParams();
  const { at } = Route.useSearch();
  const bug = useLoadedBug(bugId);
  // A reload after a stale save starts the form again from the bug as it is now.
  const [reloads, setReloads] = useState(0);
  return (
    <>
      {/* Another moment is read-only: the detail view of the bug as it was, not the form. */}
      {at ? (
        <>
          <BackToAllBugs />
          <BugDetail bug={bug} viewAs="admin" />
        </>
      ) : (
        <>
          <AdminBugForm key={`${bug._id}:${reloads}`} bug={bug} onReloaded={() => setReloads((n) => n + 1)} />
          <BugCode bug={bug} className="mt-6" />
          <BugActivity bugId={bug._id} viewAs="admin" className="mt-6" />
        </>
      )}
      {/* Outside the switch: travelling in time keeps a half-written comment. */}
      <BugComments bug={bug} viewAs="admin" className="mt-6" />
    </>
  );
}

function AdminBugForm({ bug, onReloaded }: { bug: Bug; onReloaded: () => void }) {
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
  const guard = useUnsavedChangesGuard();
  const isDirty = JSON.stringify(values) !== JSON.stringify(savedValues);
  useEffect(() => guard.setDirty(isDirty), [guard.setDirty, isDirty]);
  const [isAssignOpen, setAssignOpen] = useState(false);
  const [draftAssignees, setDraftAssignees] = useState<string[]>([]);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const [isSaved, setSaved] = useState(false);
  const assignLabel = useId();

  const set = <K extends keyof BugFormValues>(field: K, value: BugFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
    setSaved(false);
  };

  const people: UserRef[] = [...(developers.data ?? [])];
  for (const user of bug.assignedTo) if (!people.some((p) => p._id === user._id)) people.push(user);
  const assigned = values.assignedTo.map((id) => people.find((p) => p._id === id)).filter((u): u is UserRef => !!u);

  const [stale, setStale] = useState(false);
  // The version this form started from: live updates refresh `bug`, but a save must still
  // say which bug it edited, so someone else's change in between is a 409, not overwritten.
  const [baseVersion, setBaseVersion] = useState(bug.version);

  const submit = async (event: FormEvent | null, overwrite = false) => {
    event?.preventDefault();
    // Each failure under its own field (aria-invalid); the toast only says there are some.
    const found = validateAdminUpdateFields(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      notify.error(FIX_ERRORS);
      return;
    }
    try {
      const answer = await update.mutateAsync({
        // Overwriting after a stale save sends no version: the server takes this form as it is.
        ...(overwrite ? {} : { version: baseVersion }),
        payload: {
          title: values.title.trim(),
          description: values.description.trim(),
          module: values.module.trim() || null,
          priority: values.priority,
          severity: values.severity,
          status: values.status,
          dueDate: dueDateToIso(values.dueDate),
          assignedTo: values.assignedTo,
        },
      });
      // The details endpoint may leave status alone; the status endpoint is the one that owns it.
      const wanted = statusFromInput(values.status);
      let version = answer?.bug?.version ?? baseVersion;
      if (answer?.bug?.status !== wanted) {
        const moved = await api<{ bug?: Bug }>(`/api/bugs/${bug._id}/status`, {
          method: 'PUT',
          body: { status: values.status },
        });
        version = moved?.bug?.version ?? version;
        await queryClient.invalidateQueries({ queryKey: ['bug', bug._id] });
      }
      setBaseVersion(version);
      notify.success('Bug Updated Successfully');
      setStale(false);
      setSavedValues(values);
      setSaved(true);
    } catch (error) {
      if (isStaleEdit(error)) setStale(true);
      else notify.error('Failed to update bug');
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Link
        to="/admin/bugs"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
      >
        <ArrowLeft className="size-4" /> Back to All Bugs
      </Link>
      <div className="mb-6 flex min-w-0 flex-col gap-1">
        {/* The page's heading is the bug (api.md "Web conventions"); the form is its section. */}
        {bug.number ? (
          <p className="font-mono text-sm text-slate-500">
            <span className="sr-only">Bug number </span>#{bug.number}
          </p>
        ) : null}
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 [overflow-wrap:anywhere]">
          {bug.title}
        </h1>
        <p className="text-sm text-slate-500">
          Reported by {reporterName(bug.createdBy)} on {formatDate(bug.createdAt)}
        </p>
        <h2 className="mt-4 text-sm font-semibold tracking-wide text-slate-500 uppercase">View / Update Bug</h2>
      </div>
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <Card className="grid content-start gap-5 p-6 lg:col-span-2">
          <TextField
            label="Title"
            name="title"
            value={values.title}
            error={errors.title}
            onChange={(event) => set('title', event.target.value)}
          />
          <TextAreaField
            label="Description"
            name="description"
            rows={7}
            value={values.description}
            error={errors.description}
            onChange={(event) => set('description', event.target.value)}
          />
          <TextField
            label="Module"
            name="module"
            value={values.module}
            onChange={(event) => set('module', event.target.value)}
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
            <SelectField
              label="Priority"
              name="priority"
              value={values.priority}
              options={priorityOptions}
              onChange={(event) => set('priority', event.target.value)}
            />
            <SelectField
              label="Severity"
              name="severity"
              value={values.severity}
              options={severityOptions}
              onChange={(event) => set('severity', event.target.value)}
            />
            <TextField
              label="Due Date"
              name="dueDate"
              type="date"
              value={values.dueDate}
              onChange={(event) => set('dueDate', event.target.value)}
            />
          </Card>
          <Card>
            <CardHeader title="Assigned Developers" />
            <div className="space-y-4 p-5">
              {assigned.length > 0 ? (
                <div className="flex items-center gap-3">
                  <AvatarStack users={assigned} max={3} />
                  <p className="min-w-0 truncate text-sm text-slate-600">{assigned.map((u) => u.name).join(', ')}</p>
                </div>
              ) : (
                <p className="text-sm text-slate-500">Unassigned</p>
              )}
              {errors.assignedTo ? (
                <p role="alert" className="text-sm text-rose-600">
                  {errors.assignedTo}
                </p>
              ) : null}
              <Button
                variant="outline"
                className="w-full"
                icon={<UserPlus className="size-4" />}
                onClick={() => {
                  setDraftAssignees(values.assignedTo);
                  setAssignOpen(true);
                }}
              >
                Assign Developers
              </Button>
            </div>
          </Card>
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

      <Modal
        isOpen={isAssignOpen}
        onClose={() => setAssignOpen(false)}
        title="Assign Developers"
        description="Choose who works on this bug."
        footer={
          <>
            <Button variant="secondary" onClick={() => setAssignOpen(false)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                set('assignedTo', draftAssignees);
                setAssignOpen(false);
              }}
            >
              Done
            </Button>
          </>
        }
      >
        <p id={assignLabel} className="sr-only">
          Developers
        </p>
        <DeveloperPicker
          selected={draftAssignees}
          onChange={setDraftAssignees}
          known={bug.assignedTo}
          labelledBy={assignLabel}
        />
        <div className="mt-4 flex items-center gap-3">
          <AvatarStack
            users={draftAssignees.map((id) => people.find((p) => p._id === id)).filter((u): u is UserRef => !!u)}
            max={3}
          />
          <span className="text-sm text-slate-500">{draftAssignees.length} selected</span>
        </div>
      </Modal>

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
          await queryClient.refetchQueries({ queryKey: ['bug', bug._id] });
          guard.setDirty(false);
          onReloaded();
        }}
      />
      {guard.prompt}
    </form>
  );
}
