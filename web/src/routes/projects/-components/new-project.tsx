import { type ProjectAccess, projectLimits } from '@bugtrail/domain/vocabulary';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { ApiError, messageOf } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { useCreateProject } from '../../../lib/projects';
import { AccessChoice } from './access-modes';
import { type ProjectFieldErrors, ProjectToggle, projectFieldErrors } from './project-fields';

/** An admin's form for a new project: key, name, description, private, and how it works. */
export function NewProject() {
  const navigate = useNavigate();
  const create = useCreateProject();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [access, setAccess] = useState<ProjectAccess>('reporters');
  const [errors, setErrors] = useState<ProjectFieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = projectFieldErrors(key, name);
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    create.mutate(
      { key, name: name.trim(), description: description.trim(), private: isPrivate, access },
      {
        onSuccess: (project) => {
          notify.success(`Project ${project.key} created`);
          void navigate({ to: '/projects/$key/settings', params: { key: project.key } });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) return setErrors({ key: error.message });
          const fields: ProjectFieldErrors = {};
          if (error instanceof ApiError) {
            for (const d of error.details)
              if (['key', 'name', 'description'].includes(d.field))
                fields[d.field as keyof ProjectFieldErrors] = d.message;
          }
          if (Object.keys(fields).length > 0) return setErrors(fields);
          notify.error(messageOf(error, 'Could not create the project'));
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader
        title="New project"
        subtitle="Its key names its bugs: WEB-1, WEB-2, … A key is given once, for good."
      />
      <form onSubmit={submit} noValidate className="grid gap-4 px-5 py-4 sm:grid-cols-[10rem_minmax(0,1fr)]">
        <TextField
          label="Key"
          value={key}
          placeholder="WEB"
          maxLength={projectLimits.keyMax}
          autoCapitalize="characters"
          onChange={(event) => setKey(event.target.value.toUpperCase())}
          error={errors.key}
        />
        <TextField
          label="Name"
          value={name}
          placeholder="Web app"
          maxLength={projectLimits.nameMax}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
        />
        <TextAreaField
          label="Description"
          rows={2}
          value={description}
          maxLength={projectLimits.descriptionMax}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
          wrapperClassName="sm:col-span-2"
        />
        <div className="sm:col-span-2">
          <AccessChoice value={access} onChange={setAccess} />
        </div>
        <ProjectToggle label="Private" checked={isPrivate} onChange={setPrivate} className="sm:col-span-2">
          Only its members, admins and auditors see the project and its bugs; to everyone else it does not exist.
        </ProjectToggle>
        <div className="sm:col-span-2">
          <Button type="submit" isLoading={create.isPending}>
            Create project
          </Button>
        </div>
      </form>
    </Card>
  );
}
