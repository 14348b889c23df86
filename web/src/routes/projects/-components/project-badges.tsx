import type { ProjectDto } from '@bugtrail/domain/vocabulary';
import { Archive, Lock, Users } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';

/** What kind of project it is, in words: private, team, archived. */
export function ProjectBadges({ project }: { project: ProjectDto }) {
  if (!project.private && project.access !== 'team' && !project.archived) return null;
  return (
    <span className="flex flex-wrap gap-1.5">
      {project.private ? (
        <Badge tone="rose">
          <Lock className="size-3" aria-hidden="true" />
          Private
        </Badge>
      ) : null}
      {project.access === 'team' ? (
        <Badge tone="cyan">
          <Users className="size-3" aria-hidden="true" />
          Team
        </Badge>
      ) : null}
      {project.archived ? (
        <Badge>
          <Archive className="size-3" aria-hidden="true" />
          Archived
        </Badge>
      ) : null}
    </span>
  );
}

/** The key as every page shows it: a small monospace tag. */
export function ProjectKey({ value }: { value: string }) {
  return (
    <span className="rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-semibold text-slate-700">
      {value}
    </span>
  );
}
