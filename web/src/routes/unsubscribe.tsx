import { useMutation } from '@tanstack/react-query';
import { createFileRoute, Link, useLocation } from '@tanstack/react-router';
import { MailX } from 'lucide-react';
import { Button } from '../components/ui/button';
import { api, messageOf } from '../lib/api';
import { notify } from '../lib/notify';
import { compact, pickText } from '../lib/search';
import { AuthLayout } from './-components/auth-layout';

export const Route = createFileRoute('/unsubscribe')({
  validateSearch: (search: Record<string, unknown>) => compact({ token: pickText(search.token, 512) }),
  component: UnsubscribePage,
});

const unsubscribeTexts = {
  // For an answer without a message of its own; the server's words win.
  done: 'You will no longer receive notification emails',
  failed: 'Something went wrong. Please try again',
  noToken: 'This unsubscribe link is incomplete. Use the link in the email, or choose on your profile.',
};

type Unsubscribed = { message?: string; email?: string };

/**
 * Where a mail's "unsubscribe" link lands (`/unsubscribe?token=...`), signed in or not:
 * POST /api/notifications/unsubscribe turns the token's owner's notification emails off.
 * Only a click sends it, never the page load: mail scanners open every link they find.
 * A bad or used token is the server's 400, shown as it words it.
 */
function UnsubscribePage() {
  const search = Route.useSearch();
  // The raw parameter: the router would turn a token of digits into a number.
  const raw = useLocation({ select: (location) => new URLSearchParams(location.searchStr).get('token') });
  const token = raw?.trim() || search.token;
  const unsubscribe = useMutation({
    mutationFn: (value: string) =>
      api<Unsubscribed>('/api/notifications/unsubscribe', { method: 'POST', body: { token: value }, offline: 'fail' }),
    onError: (failure) => notify.error(messageOf(failure, unsubscribeTexts.failed)),
  });

  if (unsubscribe.isSuccess) {
    const { message, email } = unsubscribe.data ?? {};
    return (
      <AuthLayout
        title="You're unsubscribed"
        subtitle="Changed your mind? Choose how often we email you on your profile."
      >
        <div className="space-y-6">
          <div
            role="status"
            className="flex items-start gap-3 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900"
          >
            <MailX className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
            <div className="min-w-0">
              <p>{message || unsubscribeTexts.done}</p>
              {email ? <p className="mt-1 font-semibold break-all">{email}</p> : null}
            </div>
          </div>
          <FooterLinks />
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Stop notification emails?"
      subtitle="You will get no more emails about assignments, mentions, comments or due dates. The app still shows them."
    >
      {!token ? (
        <div className="space-y-6">
          <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
            {unsubscribeTexts.noToken}
          </p>
          <FooterLinks />
        </div>
      ) : (
        <div className="space-y-5">
          {unsubscribe.isError ? (
            <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
              {messageOf(unsubscribe.error, unsubscribeTexts.failed)}
            </div>
          ) : null}
          <Button
            className="w-full"
            size="lg"
            isLoading={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate(token)}
          >
            Unsubscribe
          </Button>
          <FooterLinks />
        </div>
      )}
    </AuthLayout>
  );
}

function FooterLinks() {
  return (
    <p className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-center text-sm text-slate-600">
      <Link to="/profile" className="font-semibold text-brand-700 hover:underline">
        Email settings on your profile
      </Link>
      <Link to="/login" className="font-semibold text-brand-700 hover:underline">
        Log in
      </Link>
    </p>
  );
}
