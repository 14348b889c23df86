import { useQuery } from '@tanstack/react-query';
import { CalendarClock, CalendarDays, Layers, Link as LinkIcon, SlidersHorizontal, User } from 'lucide-react';
import type { ReactNode } from 'react';
import { fieldText, projectFieldsQuery } from '../lib/fields';
import { bugModule, formatDate, reporterName } from '../lib/format';
import { developersQuery } from '../lib/queries';
import type { Bug } from '../lib/types';
import { BugCode } from './bug-code/bug-code';
import { BugFiles } from './bug-files/bug-files';
import { isOverdue } from './bug-list/list-search';
import { Avatar } from './ui/avatar';
import { Card, CardHeader } from './ui/card';

/**
 * The side column of the bug page body (BugDetail): who reported it and when, its due date
 * and module, who it is assigned to, its links, its files and its code.
 */

export function Meta({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    // dt and dd sit right in the group, as a definition list wants them; the icon takes the first column.
    <div className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-x-3">
      <span className="row-span-2 mt-0.5 text-slate-400" aria-hidden="true">
        {icon}
      </span>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** The bug's custom field values (issue 37), each under its field's name; people by name. */
function CustomFieldMeta({ bug }: { bug: Bug }) {
  const { data } = useQuery(projectFieldsQuery(bug.projectId));
  const fields = (data?.fields ?? []).filter((f) => bug.fields?.[f.key] != null);
  const { data: developers } = useQuery({ ...developersQuery(), enabled: fields.some((f) => f.type === 'user') });
  if (fields.length === 0) return null;
  const names = new Map([bug.createdBy, ...bug.assignedTo, ...(developers ?? [])].map((p) => [p._id, p.name]));
  return fields.map((field) => {
    const value = bug.fields[field.key]!;
    const text = fieldText(field, value, names);
    return (
      <Meta key={field._id} icon={<SlidersHorizontal className="size-4" />} label={field.name}>
        {field.type === 'url' ? (
          <a href={String(value)} target="_blank" rel="noreferrer noopener" className="text-brand-700 underline">
            {text}
          </a>
        ) : (
          text
        )}
      </Meta>
    );
  });
}

/** `planning`: the bug's parent, sub-bugs and milestone, under its facts. */
export function BugDetailSidebar({ bug, planning }: { bug: Bug; planning?: ReactNode }) {
  return (
    <div className="min-w-0 space-y-6">
      <Card className="p-5">
        <dl className="grid gap-4">
          <Meta icon={<User className="size-4" />} label="Reported by">
            {reporterName(bug.createdBy)}
          </Meta>
          <Meta icon={<CalendarDays className="size-4" />} label="Reported on">
            {formatDate(bug.createdAt)}
          </Meta>
          <Meta icon={<CalendarClock className="size-4" />} label="Due date">
            {isOverdue(bug) ? (
              <span className="text-rose-700">{formatDate(bug.dueDate)} · Overdue</span>
            ) : (
              formatDate(bug.dueDate)
            )}
          </Meta>
          <Meta icon={<Layers className="size-4" />} label="Module">
            {bugModule(bug)}
          </Meta>
          <CustomFieldMeta bug={bug} />
        </dl>
      </Card>
      {planning}
      <Card>
        <CardHeader title="Assigned To" />
        <ul className="space-y-3 p-5">
          {bug.assignedTo.length === 0 ? (
            <li className="text-sm text-slate-500">Unassigned</li>
          ) : (
            bug.assignedTo.map((user) => (
              <li key={user._id} className="flex items-center gap-3">
                <Avatar user={user} size="sm" />
                <span className="text-sm font-medium text-slate-800">{user.name}</span>
              </li>
            ))
          )}
        </ul>
      </Card>
      <Card>
        <CardHeader title="Attachments" />
        <ul className="space-y-2 p-5">
          {bug.attachments.length === 0 ? (
            <li className="text-sm text-slate-500">No attachments</li>
          ) : (
            bug.attachments.map((link) => (
              <li key={link} className="flex items-center gap-2 text-sm">
                <LinkIcon className="size-4 shrink-0 text-slate-400" />
                <a
                  href={link}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="min-w-0 truncate text-brand-700 hover:underline"
                >
                  {link}
                </a>
              </li>
            ))
          )}
        </ul>
      </Card>
      <BugFiles bug={bug} />
      <BugCode bug={bug} />
    </div>
  );
}
