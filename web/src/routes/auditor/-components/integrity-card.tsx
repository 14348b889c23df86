import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { api, messageOf } from '../../../lib/api';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/audit/verify (api.md "Audit trail"): every stream's hash chain checked. */
type VerifyAnswer = {
  ok: boolean;
  streams: number;
  events: number;
  broken: { stream: string; revision: number; reason: string }[];
};

/** Run on demand only: it reads the whole store. */
const verifyQuery = () =>
  queryOptions({
    queryKey: queryKeys.audit.verify,
    queryFn: async () => ({ ...(await api<VerifyAnswer>('/api/audit/verify')), checkedAt: new Date() }),
    enabled: false,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

const SHOWN_BREAKS = 5;

/** The store's integrity on the auditor's dashboard: checked when asked, the breaks linked to their bugs. */
export function IntegrityCard() {
  const verify = useQuery(verifyQuery());
  const result = verify.data;
  return (
    <Card className="min-w-0">
      <CardHeader title="History Integrity" subtitle="Every event checked against its hash chain." />
      <div className="space-y-4 p-5">
        {verify.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            {messageOf(verify.error, 'Could not verify the history. Please try again.')}
          </p>
        ) : result ? (
          result.ok ? (
            <div role="status" className="flex items-start gap-3 rounded-lg bg-lime-50 px-4 py-3 text-sm text-lime-900">
              <ShieldCheck className="mt-0.5 size-5 shrink-0 text-lime-700" aria-hidden="true" />
              <p>
                <span className="font-semibold">History intact:</span> {formatNumber(result.events)} events in{' '}
                {formatNumber(result.streams)} streams, chain verified.
              </p>
            </div>
          ) : (
            <div role="alert" className="space-y-2 rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-800">
              <p className="flex items-start gap-3">
                <ShieldAlert className="mt-0.5 size-5 shrink-0 text-rose-700" aria-hidden="true" />
                <span>
                  <span className="font-semibold">History broken</span> in {formatNumber(result.broken.length)}{' '}
                  {result.broken.length === 1 ? 'place' : 'places'}.
                </span>
              </p>
              <ul className="space-y-1 pl-8">
                {result.broken.slice(0, SHOWN_BREAKS).map((b) => (
                  <li key={`${b.stream}:${b.revision}`} className="break-words">
                    <BrokenStream stream={b.stream} /> at revision {b.revision}: {b.reason}
                  </li>
                ))}
              </ul>
            </div>
          )
        ) : (
          <p className="flex items-start gap-3 text-sm text-slate-600">
            <ShieldQuestion className="mt-0.5 size-5 shrink-0 text-slate-400" aria-hidden="true" />
            Check that no stored event was changed since it was written.
          </p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Button variant="secondary" onClick={() => void verify.refetch()} isLoading={verify.isFetching}>
            {result ? 'Verify again' : 'Verify history'}
          </Button>
          {result ? <span className="text-xs text-slate-500">Checked {formatDateTime(result.checkedAt)}</span> : null}
        </div>
      </div>
    </Card>
  );
}

/** A bug's stream links to its page (its history stays readable even once deleted). */
function BrokenStream({ stream }: { stream: string }) {
  const bugId = stream.startsWith('bug-') ? stream.slice('bug-'.length) : null;
  if (!bugId) return <code className="font-mono text-xs">{stream}</code>;
  return (
    <Link to="/auditor/bugs/$bugId" params={{ bugId }} className="font-mono text-xs underline">
      {stream}
    </Link>
  );
}
