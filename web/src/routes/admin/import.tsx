import {
  type ImportAnswer,
  type ImportPreviewItem,
  type ImportSource,
  importLimits,
  importSourceFiles,
  importSourceLabels,
  importSources,
} from '@bugtrail/domain/vocabulary';
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { AlertTriangle, CheckCircle2, CopyCheck, FileUp, Import } from 'lucide-react';
import { useId, useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { StatCard } from '../../components/stat-card';
import { PriorityBadge, SeverityBadge, StatusBadge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { cx } from '../../components/ui/cx';
import { DropZone } from '../../components/ui/drop-zone';
import { messageOf } from '../../lib/api';
import { formatDateTime, formatNumber } from '../../lib/format';
import { type ImportProgress, uploadImport } from '../../lib/import-upload';
import { notify } from '../../lib/notify';

export const Route = createFileRoute('/admin/import')({ component: ImportPage });

/** How many invalid rows the page lists (the count says how many more there are). */
const LISTED_ERRORS = 200;
const MB = importLimits.fileBytes / 1024 / 1024;

/**
 * Import (api.md "Integrations", docs/import.md): an admin picks the system and the file,
 * previews what will be created and each invalid row (a dry run: nothing changes), then
 * imports, watching the file go up and the bugs go in.
 */
function ImportPage() {
  const queryClient = useQueryClient();
  const [from, setFrom] = useState<ImportSource>('redmine');
  const [file, setFile] = useState<File | null>(null);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [preview, setPreview] = useState<ImportAnswer | null>(null);
  const [imported, setImported] = useState<ImportAnswer | null>(null);
  const [isBusy, setBusy] = useState(false);

  const choose = (next: { from?: ImportSource; file?: File | null }) => {
    if (next.from) setFrom(next.from);
    if (next.file !== undefined) setFile(next.file);
    setPreview(null);
    setImported(null);
    setSkipInvalid(false);
  };

  const run = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setProgress(null);
    try {
      const answer = await uploadImport(file, { from, dryRun, skipInvalid }, setProgress);
      if (dryRun) {
        setPreview(answer);
        setImported(null);
      } else {
        setImported(answer);
        setPreview(null);
        if (answer.imported > 0) {
          notify.success(`Imported ${formatNumber(answer.imported)} bug${answer.imported === 1 ? '' : 's'}`);
          void queryClient.invalidateQueries();
        }
      }
    } catch (error) {
      notify.error(messageOf(error, dryRun ? 'Could not read the file' : 'The import failed'));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <>
      <PageHeader
        title="Import bugs"
        subtitle="Bring your team's bugs from Redmine, Jira or GitHub, with their original dates, people and numbers in order."
      />
      <div className="grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-6">
        <Card>
          <CardHeader
            title="1. Choose the export"
            subtitle="Nothing changes until you import: Preview reads the whole file and says what it would do."
          />
          <div className="space-y-5 px-5 py-4">
            <SystemPicker value={from} onChange={(system) => choose({ from: system })} disabled={isBusy} />
            <FilePicker file={file} from={from} onChange={(picked) => choose({ file: picked })} disabled={isBusy} />
            {progress ? <ProgressBar progress={progress} /> : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                variant={preview ? 'secondary' : 'primary'}
                icon={<CopyCheck className="size-4" />}
                isLoading={isBusy && !preview}
                disabled={!file || isBusy}
                onClick={() => void run(true)}
              >
                Preview
              </Button>
            </div>
          </div>
        </Card>

        {preview ? (
          <PreviewCard
            answer={preview}
            label={importSourceLabels[from]}
            skipInvalid={skipInvalid}
            onSkipInvalid={setSkipInvalid}
            isBusy={isBusy}
            onImport={() => void run(false)}
          />
        ) : null}

        {imported ? <ImportedCard answer={imported} label={importSourceLabels[from]} /> : null}
      </div>
    </>
  );
}

function SystemPicker({
  value,
  onChange,
  disabled,
}: {
  value: ImportSource;
  onChange: (system: ImportSource) => void;
  disabled: boolean;
}) {
  const legend = useId();
  return (
    <fieldset aria-labelledby={legend}>
      <legend id={legend} className="text-sm font-medium text-slate-700">
        From
      </legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        {importSources.map((system) => (
          <label
            key={system}
            className={cx(
              'flex cursor-pointer items-start gap-2 rounded-lg border px-3 py-2 text-sm has-disabled:cursor-default has-disabled:opacity-70',
              value === system ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500' : 'border-slate-200',
            )}
          >
            <input
              type="radio"
              name="import-source"
              className="mt-0.5 size-4 accent-brand-600"
              checked={value === system}
              disabled={disabled}
              onChange={() => onChange(system)}
            />
            <span className="min-w-0">
              <span className="block font-medium text-slate-800">{importSourceLabels[system]}</span>
              <span className="block text-xs text-slate-600">{system === 'github' ? 'Issue JSON' : 'CSV export'}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function FilePicker({
  file,
  from,
  onChange,
  disabled,
}: {
  file: File | null;
  from: ImportSource;
  onChange: (file: File | null) => void;
  disabled: boolean;
}) {
  return (
    <DropZone
      onFiles={(files) => onChange(files[0] ?? null)}
      disabled={disabled}
      prompt={(isOver) =>
        file ? (
          <p className="mt-2 text-sm break-all text-slate-800">
            <span className="font-medium">{file.name}</span>{' '}
            <span className="text-slate-500">({fileSize(file.size)})</span>
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-700">{isOver ? 'Drop to choose' : 'Drag the file here, or'}</p>
        )
      }
      button={
        <>
          <FileUp className="size-4" aria-hidden="true" />
          {file ? 'Choose another file' : 'Choose a file'}
        </>
      }
      inputLabel="Export file"
      accept={from === 'github' ? '.json,application/json' : '.csv,text/csv'}
      hint={`${importSourceFiles[from]} · up to ${MB} MB · times without an offset are read in the server's IMPORT_TIMEZONE`}
    />
  );
}

const fileSize = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The file going up, then the server checking the rows, then the bugs going in. */
function ProgressBar({ progress }: { progress: ImportProgress }) {
  const [percent, text] =
    progress.phase === 'uploading'
      ? [
          progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0,
          `Uploading: ${(progress.sent / 1024 / 1024).toFixed(1)} of ${(progress.total / 1024 / 1024).toFixed(1)} MB`,
        ]
      : progress.phase === 'checking'
        ? [null, 'Checking every row…']
        : [
            progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 100,
            `Importing: ${formatNumber(progress.done)} of ${formatNumber(progress.total)} bugs`,
          ];
  return (
    <div className="space-y-1.5" aria-live="polite">
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
      >
        <div
          className={cx('h-full rounded-full bg-brand-600 transition-all', percent === null && 'w-1/3 animate-pulse')}
          style={percent === null ? undefined : { width: `${Math.max(percent, 3)}%` }}
        />
      </div>
      <p className="text-xs font-medium text-slate-600">{text}</p>
    </div>
  );
}

function PreviewCard({
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

function ImportedCard({ answer, label }: { answer: ImportAnswer; label: string }) {
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
