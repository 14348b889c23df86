import type { WebhookDto } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Webhook } from 'lucide-react';
import { useState } from 'react';
import { SecretShownOnce } from '../../components/copy-field';
import { PageHeader } from '../../components/page-header';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { api, messageOf } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { WebhookCard } from './-components/webhook-card';
import { NewWebhook } from './-components/webhook-form';

export const Route = createFileRoute('/admin/webhooks')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery({
      queryKey: queryKeys.webhooks.all,
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
    queryKey: queryKeys.webhooks.all,
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
