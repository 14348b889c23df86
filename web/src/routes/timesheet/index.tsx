import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Clock, Download } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { SelectField, TextField } from '../../components/ui/field';
import { downloadFile, messageOf } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { projectsQuery } from '../../lib/projects';
import { compact, pickText } from '../../lib/search';
import { formatMinutes, timesheetQuery, todayIso } from '../../lib/time';

const day = (value: unknown) => {
  const text = pickText(value, 10);
  return text && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined;
};
const weekBefore = (to: string) => {
  const d = new Date(`${to}T12:00:00`);
  d.setDate(d.getDate() - 6);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

export const Route = createFileRoute('/timesheet/')({
  validateSearch: (search: Record<string, unknown>) =>
    compact({
      from: day(search.from),
      to: day(search.to),
      project: pickText(search.project, 100),
      user: pickText(search.user, 100),
    }),
  component: TimesheetPage,
});

/**
 * A timesheet (issue 37): the time logged on the bugs the reader may open in a date range, per
 * person and per project, with the entries day by day; narrowed to a project or a person, and
 * downloaded as a spreadsheet or CSV. The range, project and person are in the URL.
 */
function TimesheetPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: '/timesheet/' });
  const to = search.to ?? todayIso();
  const from = search.from ?? weekBefore(to);
  const params: Record<string, string> = compact({ from, to, project: search.project, user: search.user }) as Record<
    string,
    string
  >;
  const sheet = useQuery(timesheetQuery(params));
  const projects = useQuery(projectsQuery());
  const set = (patch: Partial<typeof search>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }) });
  const data = sheet.data;
  const people = data?.totals.byUser ?? [];
  return (
    <>
      <PageHeader
        title="Timesheet"
        subtitle="Time logged on the bugs you can open, per person and per project."
        actions={<ExportButtons params={params} />}
      />
      <Card className="mb-6 grid gap-4 p-5 sm:grid-cols-4">
        <TextField
          label="From"
          type="date"
          value={from}
          max={to}
          onChange={(e) => set({ from: e.target.value || undefined })}
        />
        <TextField
          label="To"
          type="date"
          value={to}
          min={from}
          onChange={(e) => set({ to: e.target.value || undefined })}
        />
        <SelectField
          label="Project"
          value={search.project ?? ''}
          onChange={(e) => set({ project: e.target.value || undefined })}
          options={[
            { value: '', label: 'Every project' },
            ...(projects.data?.projects ?? []).map((p) => ({ value: p.key, label: `${p.key} · ${p.name}` })),
          ]}
        />
        <SelectField
          label="Person"
          value={search.user ?? ''}
          onChange={(e) => set({ user: e.target.value || undefined })}
          options={[
            { value: '', label: 'Everyone' },
            ...people.map((p) => ({ value: p.user._id, label: p.user.name })),
            ...(search.user && !people.some((p) => p.user._id === search.user)
              ? [{ value: search.user, label: 'Chosen person' }]
              : []),
          ]}
        />
      </Card>
      {sheet.isError ? (
        <Card className="px-5 py-4 text-sm text-rose-600">
          {messageOf(sheet.error, 'Could not load the timesheet')}
        </Card>
      ) : !data || data.entries.length === 0 ? (
        <Card>
          <EmptyState icon={<Clock className="size-6" />} title={sheet.isPending ? 'Loading…' : 'No time logged'}>
            <p className="max-w-sm text-sm text-slate-500">
              Developers log time on the bugs assigned to them, from each bug’s page.
            </p>
          </EmptyState>
        </Card>
      ) : (
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
          <div className="grid gap-6 md:grid-cols-2">
            <Totals
              title="Per person"
              total={data.totals.minutes}
              rows={data.totals.byUser.map((r) => ({ id: r.user._id, name: r.user.name, minutes: r.minutes }))}
            />
            <Totals
              title="Per project"
              total={data.totals.minutes}
              rows={data.totals.byProject.map((r) => ({
                id: r.project._id,
                name: `${r.project.key} · ${r.project.name}`,
                minutes: r.minutes,
              }))}
            />
          </div>
          <Card className="overflow-hidden">
            <CardHeader
              title="Entries"
              subtitle={data.truncated ? 'The first 1,000: download the sheet for every one.' : undefined}
            />
            <div className="overflow-x-auto">
              <table className="w-full min-w-[40rem] text-left text-sm">
                <thead className="border-y border-slate-200 bg-slate-50 text-xs font-medium text-slate-600 uppercase">
                  <tr>
                    <th className="px-4 py-2">Day</th>
                    <th className="px-4 py-2">Person</th>
                    <th className="px-4 py-2">Bug</th>
                    <th className="px-4 py-2 text-right">Time</th>
                    <th className="px-4 py-2">Note</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.entries.map((entry) => (
                    <tr key={entry._id}>
                      <td className="px-4 py-2 whitespace-nowrap">{formatDate(`${entry.on}T12:00:00`)}</td>
                      <td className="px-4 py-2">{entry.user.name}</td>
                      <td className="px-4 py-2">
                        <Link
                          to="/bugs/$number"
                          params={{ number: entry.bug.key ?? entry.bug._id }}
                          className="font-medium text-brand-700 underline underline-offset-2"
                        >
                          {entry.bug.key}
                        </Link>{' '}
                        <span className="text-slate-600">{entry.bug.title}</span>
                      </td>
                      <td className="px-4 py-2 text-right font-medium whitespace-nowrap">
                        {formatMinutes(entry.minutes)}
                      </td>
                      <td className="px-4 py-2 text-slate-600">{entry.note}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        </div>
      )}
    </>
  );
}

function Totals({
  title,
  total,
  rows,
}: {
  title: string;
  total: number;
  rows: { id: string; name: string; minutes: number }[];
}) {
  return (
    <Card>
      <CardHeader title={title} subtitle={`${formatMinutes(total)} in all`} />
      <ul className="divide-y divide-slate-100 border-t border-slate-100">
        {rows.map((row) => (
          <li key={row.id} className="grid gap-1.5 px-5 py-3">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="min-w-0 truncate font-medium text-slate-800">{row.name}</span>
              <span className="shrink-0 tabular-nums text-slate-700">{formatMinutes(row.minutes)}</span>
            </div>
            <div className="h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
              <div
                className="h-full rounded-full bg-brand-500"
                style={{ width: `${(row.minutes / Math.max(1, total)) * 100}%` }}
              />
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ExportButtons({ params }: { params: Record<string, string> }) {
  const [busy, setBusy] = useState<'xlsx' | 'csv' | null>(null);
  const download = async (format: 'xlsx' | 'csv') => {
    setBusy(format);
    try {
      const query = new URLSearchParams({ ...params, format });
      await downloadFile(`/api/reports/export/worklog?${query}`, `timesheet_${params.from}_${params.to}.${format}`);
    } catch {
      notify.error('Could not download the timesheet');
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex gap-2">
      <Button
        variant="secondary"
        icon={<Download className="size-4" />}
        isLoading={busy === 'xlsx'}
        onClick={() => download('xlsx')}
      >
        Spreadsheet
      </Button>
      <Button
        variant="secondary"
        icon={<Download className="size-4" />}
        isLoading={busy === 'csv'}
        onClick={() => download('csv')}
      >
        CSV
      </Button>
    </div>
  );
}
