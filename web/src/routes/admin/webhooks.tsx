import {
  type WebhookDeliveryDto,
  type WebhookDto,
  webhookEventTypes,
  webhookLimits,
  webhookMessages,
} from '@bugtrail/domain/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Power, Radio, RotateCcw, Send, Trash2, Webhook } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmModal } from '../../components/confirm-modal';
import { SecretShownOnce } from '../../components/copy-field';
import { PageHeader } from '../../components/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { TextField } from '../../components/ui/field';
import { ApiError, api, messageOf } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';

const webhooksKey = ['webhooks'] as const;
const deliveriesKey = (id: string) => ['webhooks', id, 'deliveries'] as const;
/** How often an open delivery log asks for what is new. */
const LOG_REFRESH_MS = 2000;

const eventLabels: Record<(typeof webhookEventTypes)[number], string> = {
  'bug.reported': 'Bug reported',
  'bug.updated': 'Bug edited',
  'bug.status_changed': 'Status changed',
  'bug.assigned': 'Assignees changed',
  'bug.checklist_changed': 'Checklist changed',
  'bug.deleted': 'Bug deleted',
  'comment.created': 'Comment added',
};

export const Route = createFileRoute('/admin/webhooks')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery({
      queryKey: webhooksKey,
      queryFn: () => api<{ webhooks: WebhookDto[] }>('/api/webhooks'),
    });
  },
  component: WebhooksPage,
});

/**
 * Outgoing webhooks (api.md "Integrations"): subscribe a URL to bug events, copy its
 * signing secret once, switch it off and on, ping it, and follow each delivery in its log.
 */
function WebhooksPage() {
  const webhooks = useQuery({
    queryKey: webhooksKey,
    queryFn: () => api<{ webhooks: WebhookDto[] }>('/api/webhooks'),
  });
  const [created, setCreated] = useState<{ webhook: WebhookDto; secret: string } | null>(null);
  const list = webhooks.data?.webhooks ?? [];
  return (
    <>
      <PageHeader
        title="Webhooks"
        subtitle="Tell other systems what happens to bugs: each change is POSTed to your URL, signed as Standard Webhooks."
      />
      <div className="grid max-w-4xl grid-cols-[minmax(0,1fr)] gap-6">
        <NewWebhook onCreated={setCreated} />
        {created ? (
          <SecretShownOnce
            label="Signing secret"
            value={created.secret}
            copiedMessage="Secret copied"
            onDone={() => setCreated(null)}
          >
            <span className="font-semibold">Webhook added.</span> Copy its signing secret now: it is shown only this
            once. Receivers verify <code className="font-mono">webhook-signature</code> with it.
          </SecretShownOnce>
        ) : null}
        {webhooks.isError ? (
          <Card className="px-5 py-4 text-sm text-rose-600">
            {messageOf(webhooks.error, 'Could not load webhooks')}
          </Card>
        ) : list.length === 0 ? (
          <Card>
            <EmptyState
              icon={<Webhook className="size-6" />}
              title={webhooks.isPending ? 'Loading…' : 'No webhooks yet'}
            >
              <p className="max-w-sm text-sm text-slate-500">
                Add one above: chat tools, CI and your own services can hear of every report, status change and comment.
              </p>
            </EmptyState>
          </Card>
        ) : (
          <ul aria-label="Webhooks" className="grid grid-cols-[minmax(0,1fr)] gap-4">
            {list.map((webhook) => (
              <li key={webhook._id}>
                <WebhookCard webhook={webhook} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

type Errors = Partial<Record<'url' | 'events' | 'description', string>>;

function NewWebhook({ onCreated }: { onCreated: (created: { webhook: WebhookDto; secret: string }) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const [errors, setErrors] = useState<Errors>({});
  const legend = useId();
  const create = useMutation({
    mutationFn: (body: { url: string; events: string[]; description: string }) =>
      api<{ webhook: WebhookDto; secret: string }>('/api/webhooks', { method: 'POST', body }),
    onSuccess: (answer) => {
      onCreated(answer);
      setUrl('');
      setDescription('');
      setEvents(['*']);
      void queryClient.invalidateQueries({ queryKey: webhooksKey });
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
    create.mutate({ url: url.trim(), events, description: description.trim() });
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

function WebhookCard({ webhook }: { webhook: WebhookDto }) {
  const queryClient = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const [deleting, setDeleting] = useState(false);
  /** A card's action: the server's answer toasted, the list and logs read again. */
  const action = (send: () => Promise<unknown>, done: string, failed: string, then?: () => void) => ({
    mutationFn: send,
    onSuccess: () => {
      then?.();
      notify.success(done);
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    },
    onError: (error: unknown) => notify.error(messageOf(error, failed)),
  });
  const toggle = useMutation(
    action(
      () => api(`/api/webhooks/${webhook._id}`, { method: 'PUT', body: { active: !webhook.active } }),
      webhook.active ? 'Webhook switched off' : 'Webhook switched on',
      'Could not change the webhook',
    ),
  );
  const ping = useMutation(
    action(
      () => api(`/api/webhooks/${webhook._id}/ping`, { method: 'POST' }),
      'Ping sent',
      'Could not send the ping',
      () => setShowLog(true),
    ),
  );
  const remove = useMutation(
    action(
      () => api(`/api/webhooks/${webhook._id}`, { method: 'DELETE' }),
      'Webhook deleted',
      'Could not delete the webhook',
      () => setDeleting(false),
    ),
  );
  const events = webhook.events.includes('*') ? ['Every event'] : webhook.events;
  return (
    <Card>
      <div className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start">
        <div className="min-w-0 sm:flex-1">
          <p className="font-mono text-sm break-all text-slate-900">{webhook.url}</p>
          {webhook.description ? <p className="mt-0.5 text-sm text-slate-500">{webhook.description}</p> : null}
          <div className="mt-2 flex flex-wrap gap-1.5">
            <Badge tone={webhook.active ? 'green' : 'rose'}>{webhook.active ? 'Active' : 'Switched off'}</Badge>
            {events.map((event) => (
              <Badge key={event}>{event}</Badge>
            ))}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            icon={<Send className="size-4" />}
            isLoading={ping.isPending}
            onClick={() => ping.mutate()}
          >
            Ping
          </Button>
          <Button
            variant="secondary"
            size="sm"
            icon={<Power className="size-4" />}
            isLoading={toggle.isPending}
            onClick={() => toggle.mutate()}
          >
            {webhook.active ? 'Switch off' : 'Switch on'}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            icon={<Trash2 className="size-4" />}
            onClick={() => setDeleting(true)}
            aria-label={`Delete ${webhook.url}`}
          >
            Delete
          </Button>
        </div>
      </div>
      <div className="border-t border-slate-100 px-5 py-3">
        <Button
          variant="ghost"
          size="sm"
          icon={<Radio className="size-4" />}
          aria-expanded={showLog}
          onClick={() => setShowLog((shown) => !shown)}
        >
          {showLog ? 'Hide deliveries' : 'Show deliveries'}
        </Button>
        {showLog ? <DeliveryLog webhookId={webhook._id} /> : null}
      </div>
      <ConfirmModal
        isOpen={deleting}
        title="Delete this webhook?"
        confirmLabel="Delete"
        isBusy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setDeleting(false)}
      >
        {webhook.url} hears nothing more, and its delivery log goes with it.
      </ConfirmModal>
    </Card>
  );
}

/** The webhook's attempts, newest first, refreshed every 2 s while open. */
function DeliveryLog({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const log = useQuery({
    queryKey: deliveriesKey(webhookId),
    queryFn: () => api<{ deliveries: WebhookDeliveryDto[] }>(`/api/webhooks/${webhookId}/deliveries`),
    refetchInterval: LOG_REFRESH_MS,
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      api(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { method: 'POST' }),
    onSuccess: () => {
      notify.success('Redelivery sent');
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(webhookId) });
    },
    onError: (error) => notify.error(messageOf(error, 'Could not redeliver')),
  });
  const deliveries = log.data?.deliveries ?? [];
  if (log.isError)
    return <p className="mt-2 text-sm text-rose-600">{messageOf(log.error, 'Could not load the log')}</p>;
  if (deliveries.length === 0) {
    return <p className="mt-2 text-sm text-slate-500">{log.isPending ? 'Loading…' : 'Nothing sent yet.'}</p>;
  }
  return (
    <div className="relative mt-2 overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label="Deliveries">
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            <th className="py-2 pr-3 font-medium">When</th>
            <th className="py-2 pr-3 font-medium">Event</th>
            <th className="py-2 pr-3 font-medium">Attempt</th>
            <th className="py-2 pr-3 font-medium">Answer</th>
            <th className="py-2 pr-3 font-medium">Time</th>
            <th className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {deliveries.map((delivery) => {
            const ok = delivery.status !== null && delivery.status >= 200 && delivery.status < 300;
            return (
              <tr key={delivery._id}>
                <td className="py-2 pr-3 whitespace-nowrap text-slate-600">{formatDateTime(delivery.at)}</td>
                <td className="py-2 pr-3 font-mono text-xs text-slate-800">{delivery.type}</td>
                <td className="py-2 pr-3 text-slate-600">{delivery.attempt}</td>
                <td className="py-2 pr-3">
                  <Badge tone={ok ? 'green' : 'rose'}>{delivery.status ?? 'No answer'}</Badge>
                  {delivery.error ? (
                    <span className="mt-0.5 block max-w-xs text-xs break-words text-slate-500">{delivery.error}</span>
                  ) : null}
                </td>
                <td className="py-2 pr-3 whitespace-nowrap text-slate-600">{delivery.durationMs} ms</td>
                <td className="py-2 text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    icon={<RotateCcw className="size-4" />}
                    onClick={() => redeliver.mutate(delivery._id)}
                    aria-label={`Redeliver ${delivery.type} of ${formatDateTime(delivery.at)}`}
                  >
                    Redeliver
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
