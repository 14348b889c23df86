/** What an import would do (the dry run's preview, with each invalid row) and what it did. */
import type { ImportAnswer, ImportPreviewItem } from '@bugtrail/domain/vocabulary';
import { Link } from '@tanstack/react-router';
import { AlertTriangle, CheckCircle2, CopyCheck, Import } from 'lucide-react';
import { StatCard } from '../../../components/stat-card';
import { PriorityBadge, SeverityBadge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cx } from '../../../components/ui/cx';
import { formatDateTime, formatNumber } from '../../../lib/format';

/** How many invalid rows the page lists (the count says how many more there are). */
const LISTED_ERRORS = 200;

export function PreviewCard({
  answer,
  label,
  skipInvalid,
  onSkipInvalid,
  isBusy,
  onImport,
}: {
  answer: ImportAnswer;
  label: string;
  skipInvalid: boolean;
  onSkipInvalid: (skip: boolean) => void;
  isBusy: boolean;
  onImport: () => void;
}) {
  const hasErrors = answer.errors.length > 0;
  const isBlocked = hasErrors && !skipInvalid;
  const items = answer.preview ?? [];
  return (
    <Card aria-labelledby="import-preview-title">
      <div className="flex items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <h2 id="import-preview-title" className="text-base font-semibold text-slate-900">
            2. Preview
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">
            What importing this {label} file would do. Nothing has changed yet.
          </p>
        </div>
      </div>
      <div className="space-y-5 px-5 py-4">
        <div className="grid gap-3 sm:grid-cols-3">
          <StatCard label="To import" value={answer.imported} icon={Import} accent="brand" />
          <StatCard label="Already here (skipped)" value={answer.skipped} icon={CopyCheck} accent="cyan" />
          <StatCard label="Invalid rows" value={answer.errors.length} icon={AlertTriangle} accent="violet" />
        </div>

        {hasErrors ? (
          <section aria-labelledby="import-errors-title" className="rounded-lg border border-rose-200 bg-rose-50/50">
            <h3 id="import-errors-title" className="px-4 pt-3 text-sm font-semibold text-rose-800">
              Invalid rows
            </h3>
            <ul
              className="max-h-64 divide-y divide-rose-100 overflow-y-auto px-4 py-2 text-sm"
              aria-label="Invalid rows"
            >
              {answer.errors.slice(0, LISTED_ERRORS).map((error) => (
                <li key={`${error.row}:${error.message}`} className="flex gap-3 py-1.5">
                  <span className="w-16 shrink-0 font-mono text-xs leading-5 text-rose-700">Row {error.row}</span>
                  <span className="min-w-0 text-slate-800">{error.message}</span>
                </li>
              ))}
            </ul>
            {answer.errors.length > LISTED_ERRORS ? (
              <p className="px-4 pb-3 text-xs text-slate-600">
                … and {formatNumber(answer.errors.length - LISTED_ERRORS)} more (the CLI's --json lists them all).
              </p>
            ) : null}
          </section>
        ) : null}

        {items.length > 0 ? (
          <section aria-labelledby="import-sample-title">
            <h3 id="import-sample-title" className="text-sm font-semibold text-slate-800">
              {items.length < answer.imported
                ? `The first ${items.length} of ${formatNumber(answer.imported)} bugs it would create`
                : 'The bugs it would create'}
            </h3>
            <ul className="mt-2 grid gap-2 lg:grid-cols-2" aria-label="Bugs to create">
              {items.map((item) => (
                <PreviewItem key={item.sourceId} item={item} />
              ))}
            </ul>
          </section>
        ) : null}

        <div className="flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-between">
          {hasErrors ? (
            <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="size-4 accent-brand-600"
                checked={skipInvalid}
                onChange={(event) => onSkipInvalid(event.target.checked)}
              />
              Skip the invalid rows and import the others
            </label>
          ) : (
            <span className="text-sm text-slate-500">Every row is valid.</span>
          )}
          <Button
            icon={<Import className="size-4" />}
            isLoading={isBusy}
            disabled={isBusy || isBlocked || answer.imported === 0}
            onClick={onImport}
          >
            {answer.imported === 0 ? 'Nothing to import' : `Import ${formatNumber(answer.imported)} bugs`}
          </Button>
        </div>
        {isBlocked ? (
          <p className="text-sm text-rose-700" role="note">
            A file with invalid rows imports nothing: fix them in the export, or skip them.
          </p>
        ) : null}
      </div>
    </Card>
  );
}

function PreviewItem({ item }: { item: ImportPreviewItem }) {
  return (
    <li className="rounded-lg border border-slate-200 px-3 py-2.5">
      <div className="flex items-baseline gap-2">
        <span className="shrink-0 font-mono text-xs text-slate-500">{item.sourceId}</span>
        <span className="min-w-0 truncate text-sm font-medium text-slate-900" title={item.title}>
          {item.title}
        </span>
      </div>
      <div className="mt-1.5 flex flex-wrap gap-1.5">
        <StatusBadge status={item.status} viewAs="admin" />
        <PriorityBadge priority={item.priority} />
        <SeverityBadge severity={item.severity} />
        {item.module ? <span className="text-xs leading-5 text-slate-500">{item.module}</span> : null}
      </div>
      <p className="mt-1.5 text-xs text-slate-600">
        Reported by {item.reporter} · {formatDateTime(item.createdAt)}
        {item.assignees.length > 0 ? ` · assigned to ${item.assignees.join(', ')}` : ''}
        {item.statusChangedAt
          ? ` · ${item.status === 'Closed' ? 'closed' : 'changed'} ${formatDateTime(item.statusChangedAt)}`
          : ''}
      </p>
    </li>
  );
}

export function ImportedCard({ answer, label }: { answer: ImportAnswer; label: string }) {
  const isBlocked = answer.imported === 0 && answer.errors.length > 0;
  return (
    <Card className={cx('px-5 py-4', isBlocked ? 'border-rose-200' : 'border-lime-200')} role="status">
      <div className="flex items-start gap-3">
        {isBlocked ? (
          <AlertTriangle className="mt-0.5 size-5 shrink-0 text-rose-600" aria-hidden="true" />
        ) : (
          <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-lime-600" aria-hidden="true" />
        )}
        <div className="min-w-0 text-sm text-slate-700">
          <p className="font-semibold text-slate-900">
            {isBlocked
              ? 'Nothing imported: the file has invalid rows.'
              : `Imported ${formatNumber(answer.imported)} bug${answer.imported === 1 ? '' : 's'} from ${label}.`}
          </p>
          <p className="mt-0.5">
            {formatNumber(answer.skipped)} already here, {formatNumber(answer.errors.length)} invalid row
            {answer.errors.length === 1 ? '' : 's'}
            {answer.errors.length > 0 && !isBlocked ? ' skipped' : ''}.{' '}
            {answer.imported > 0 ? (
              <Link to="/admin/bugs" className="font-medium text-brand-700 underline">
                See them in Manage Bugs
              </Link>
            ) : null}
          </p>
        </div>
      </div>
    </Card>
  );
}
