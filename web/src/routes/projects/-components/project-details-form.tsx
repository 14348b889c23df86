import { type ProjectAccess, type ProjectDto, projectLimits } from '@bugtrail/domain/vocabulary';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { ApiError, messageOf } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { type ProjectChanges, useUpdateProject } from '../../../lib/projects';
import { AccessChoice } from './access-modes';
import { type ProjectFieldErrors, ProjectToggle, projectFieldErrors } from './project-fields';

/** Name, key, description, privacy, how it works, archived: only what changed is sent. */
export function ProjectDetailsForm({ project, canManage }: { project: ProjectDto; canManage: boolean }) {
  const navigate = useNavigate();
  const update = useUpdateProject(project._id);
  const [key, setKey] = useState(project.key);
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const [isPrivate, setPrivate] = useState(project.private);
  const [access, setAccess] = useState<ProjectAccess>(project.access);
  const [archived, setArchived] = useState(project.archived);
  const [errors, setErrors] = useState<ProjectFieldErrors>({});

  const changes: ProjectChanges = {
    ...(key !== project.key ? { key } : {}),
    ...(name.trim() !== project.name ? { name: name.trim() } : {}),
    ...(description.trim() !== project.description ? { description: description.trim() } : {}),
    ...(isPrivate !== project.private ? { private: isPrivate } : {}),
    ...(access !== project.access ? { access } : {}),
    ...(archived !== project.archived ? { archived } : {}),
  };
  const isChanged = Object.keys(changes).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = projectFieldErrors(key, name);
    setErrors(next);
    if (Object.keys(next).length > 0 || !isChanged) return;
    update.mutate(changes, {
      onSuccess: (saved) => {
        notify.success('Project saved');
        // The page is named by the key: a new key is a new address (the old one still works).
        if (saved.key !== project.key) void navigate({ to: '/projects/$key/settings', params: { key: saved.key } });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) return setErrors({ key: error.message });
        notify.error(messageOf(error, 'Could not save the project'));
      },
    });
  };

  return (
    <Card>
      <CardHeader
        title="Details"
        subtitle={
          canManage
            ? 'Admins and the project’s leads change these.'
            : 'Only admins and the project’s leads change these.'
        }
      />
      <form onSubmit={submit} noValidate className="grid gap-4 px-5 py-4 sm:grid-cols-[10rem_minmax(0,1fr)]">
        <TextField
          label="Key"
          value={key}
          disabled={!canManage}
          maxLength={projectLimits.keyMax}
          onChange={(event) => setKey(event.target.value.toUpperCase())}
          error={errors.key}
          hint={key !== project.key ? `${project.key}-7 keeps working after the change.` : undefined}
        />
        <TextField
          label="Name"
          value={name}
          disabled={!canManage}
          maxLength={projectLimits.nameMax}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
        />
        <TextAreaField
          label="Description"
          rows={2}
          value={description}
          disabled={!canManage}
          maxLength={projectLimits.descriptionMax}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
          wrapperClassName="sm:col-span-2"
        />
        <div className="sm:col-span-2">
          <AccessChoice value={access} onChange={setAccess} disabled={!canManage} />
        </div>
        <fieldset className="space-y-2 sm:col-span-2" disabled={!canManage}>
          <legend className="sr-only">Visibility and state</legend>
          <ProjectToggle label="Private" checked={isPrivate} onChange={setPrivate}>
            Only its members, admins and auditors see it and its bugs.
          </ProjectToggle>
          <ProjectToggle label="Archived" checked={archived} onChange={setArchived}>
            Kept and readable, out of the way of current work.
          </ProjectToggle>
        </fieldset>
        {canManage ? (
          <div className="sm:col-span-2">
            <Button type="submit" isLoading={update.isPending} disabled={!isChanged}>
              Save changes
            </Button>
          </div>
        ) : null}
      </form>
    </Card>
  );
}
