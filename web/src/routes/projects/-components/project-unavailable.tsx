import type { ProjectDto } from '@bugtrail/domain/vocabulary';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FolderX } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, messageOf } from '../../../lib/api';

/** What a project's pages show until the project is loaded: a spinner, or why it cannot be (404 or a failure). */
export function ProjectUnavailable({
  project,
  projectKey,
}: {
  project: UseQueryResult<ProjectDto>;
  projectKey: string;
}) {
  if (project.isPending) {
    return (
      <div className="flex justify-center py-16 text-brand-600">
        <Spinner className="size-6" label="Loading" />
      </div>
    );
  }
  const isMissing = project.error instanceof ApiError && project.error.status === 404;
  return (
    <Card>
      <EmptyState
        icon={<FolderX className="size-6" />}
        title={isMissing ? `There is no project ${projectKey}` : 'Could not load the project'}
      >
        <p className="text-sm text-slate-500">
          {isMissing ? 'It may have a new key, or you may not be one of its members.' : messageOf(project.error, '')}
        </p>
        <Link to="/projects" className="mt-3 text-sm font-medium text-brand-700 hover:underline">
          All projects
        </Link>
      </EmptyState>
    </Card>
  );
}
