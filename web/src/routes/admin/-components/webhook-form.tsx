/** The form that adds a webhook: its URL, the events it hears and a description, each problem shown on its field. */
import { type WebhookDto, webhookEventTypes, webhookLimits, webhookMessages } from '@bugtrail/domain/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Webhook } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { ApiError, api, messageOf } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { projectsQuery } from '../../../lib/projects';
import { queryKeys } from '../../../lib/query-keys';

const eventLabels: Record<(typeof webhookEventTypes)[number], string> = {
  'bug.reported': 'Bug reported',
  'bug.updated': 'Bug edited',
  'bug.status_changed': 'Status changed',
  'bug.assigned': 'Assignees changed',
  'bug.checklist_changed': 'Checklist changed',
  'bug.deleted': 'Bug deleted',
  'comment.created': 'Comment added',
};

type Errors = Partial<Record<'url' | 'events' | 'description', string>>;

export function NewWebhook({ onCreated }: { onCreated: (created: { webhook: WebhookDto; secret: string }) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  // Only these projects' bugs (issue 35); none ticked: every project's.
  const [projects, setProjects] = useState<string[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const legend = useId();
  const projectsLegend = useId();
  const known = useQuery(projectsQuery());
  const create = useMutation({
    mutationFn: (body: { url: string; events: string[]; description: string; projects: string[] | null }) =>
      api<{ webhook: WebhookDto; secret: string }>('/api/webhooks', { method: 'POST', body }),
    onSuccess: (answer) => {
      onCreated(answer);
      setUrl('');
      setDescription('');
      setEvents(['*']);
      setProjects([]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all });
    },
    onError: (error) => {
      const next: Errors = {};
      if (error instanceof ApiError) {
        for (const detail of error.details) {
          const field = detail.field as keyof Errors;
          if (['url', 'events', 'description'].includes(field) && !next[field]) next[field] = detail.message;
        }
      }
      if (Object.keys(next).length === 0) notify.error(messageOf(error, 'Could not add the webhook'));
      setErrors(next);
    },
  });
  const isAll = events.includes('*');
  const toggle = (type: string) =>
    setEvents((current) => {
      if (type === '*') return current.includes('*') ? [] : ['*'];
      const specific = current.filter((t) => t !== '*');
      return specific.includes(type) ? specific.filter((t) => t !== type) : [...specific, type];
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!url.trim()) return setErrors({ url: webhookMessages.urlRequired });
    if (events.length === 0) return setErrors({ events: webhookMessages.eventsRequired });
    setErrors({});
    create.mutate({
      url: url.trim(),
      events,
      description: description.trim(),
      projects: projects.length > 0 ? projects : null,
    });
  };
  return (
    <Card>
      <CardHeader title="Add a webhook" subtitle="Only public addresses; the answer must be a 2xx within 10 seconds." />
      <form onSubmit={submit} noValidate className="space-y-4 px-5 py-4">
        <TextField
          label="Payload URL"
          type="url"
          placeholder="https://hooks.example.com/bugtrail"
          value={url}
          maxLength={webhookLimits.urlMax}
          onChange={(event) => setUrl(event.target.value)}
          error={errors.url}
        />
        <fieldset aria-describedby={errors.events ? `${legend}-error` : undefined}>
          <legend id={legend} className="text-sm font-medium text-slate-700">
            Events
          </legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            <Check label="Every event" checked={isAll} onChange={() => toggle('*')} />
            {webhookEventTypes.map((type) => (
              <Check
                key={type}
                label={eventLabels[type]}
                hint={type}
                checked={isAll || events.includes(type)}
                disabled={isAll}
                onChange={() => toggle(type)}
              />
            ))}
          </div>
          {errors.events ? (
            <p id={`${legend}-error`} role="alert" className="mt-1.5 text-sm text-rose-600">
              {errors.events}
            </p>
          ) : null}
        </fieldset>
        {(known.data?.projects.length ?? 0) > 1 ? (
          <fieldset>
            <legend id={projectsLegend} className="text-sm font-medium text-slate-700">
              Projects <span className="font-normal text-slate-500">(none ticked: every project)</span>
            </legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {(known.data?.projects ?? []).map((project) => (
                <Check
                  key={project._id}
                  label={project.name}
                  hint={project.key}
                  checked={projects.includes(project._id)}
                  onChange={() =>
                    setProjects((current) =>
                      current.includes(project._id)
                        ? current.filter((id) => id !== project._id)
                        : [...current, project._id],
                    )
                  }
                />
              ))}
            </div>
          </fieldset>
        ) : null}
        <TextField
          label="Description (optional)"
          placeholder="e.g. #bugs channel"
          value={description}
          maxLength={webhookLimits.descriptionMax}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
        />
        <div className="flex justify-end">
          <Button type="submit" isLoading={create.isPending} icon={<Webhook className="size-4" />}>
            Add webhook
          </Button>
        </div>
      </form>
    </Card>
  );
}

function Check({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: () => void;
}) {
  return (
    <label className="flex cursor-pointer items-start gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm has-disabled:cursor-default has-disabled:opacity-70">
      <input
        type="checkbox"
        className="mt-0.5 size-4 accent-brand-600"
        checked={checked}
        disabled={disabled}
        onChange={onChange}
      />
      <span className="min-w-0">
        <span className="block font-medium text-slate-800">{label}</span>
        {hint ? <span className="block font-mono text-xs text-slate-500">{hint}</span> : null}
      </span>
    </label>
  );
}
