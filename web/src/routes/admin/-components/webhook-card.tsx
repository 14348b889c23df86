/** One webhook in the list: what it hears, ping, switch off and on, delete, and its delivery log. */
import type { WebhookDeliveryDto, WebhookDto } from '@bugtrail/domain/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Power, Radio, RotateCcw, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { api, messageOf } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';

/** How often an open delivery log asks for what is new. */
const LOG_REFRESH_MS = 2000;

export function WebhookCard({ webhook }: { webhook: WebhookDto }) {
  const queryClient = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const [deleting, setDeleting] = useState(false);
  /** A card's action: the server's answer toasted, the list and logs read again. */
  const action = (send: () => Promise<unknown>, done: string, failed: string, then?: () => void) => ({
    mutationFn: send,
    onSuccess: () => {
      then?.();
      notify.success(done);
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all });
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
    queryKey: queryKeys.webhooks.deliveries(webhookId),
    queryFn: () => api<{ deliveries: WebhookDeliveryDto[] }>(`/api/webhooks/${webhookId}/deliveries`),
    refetchInterval: LOG_REFRESH_MS,
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      api(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { method: 'POST' }),
    onSuccess: () => {
      notify.success('Redelivery sent');
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(webhookId) });
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
