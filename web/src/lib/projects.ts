import type { ProjectAccess, ProjectDto, ProjectRole } from '@bugtrail/domain/vocabulary';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';

/** Projects (api.md "Projects"): the ones the caller may see, and one by its key. */
export const projectsQuery = () =>
  queryOptions({
    queryKey: queryKeys.projects.all,
    queryFn: ({ signal }) => api<{ projects: ProjectDto[] }>('/api/projects', { signal }),
    staleTime: 60_000,
  });

export const projectQuery = (idOrKey: string) =>
  queryOptions({
    queryKey: queryKeys.projects.detail(idOrKey),
    queryFn: ({ signal }) => api<ProjectDto>(`/api/projects/${encodeURIComponent(idOrKey)}`, { signal }),
  });

export type ProjectDraft = { key: string; name: string; description: string; private: boolean; access: ProjectAccess };
export type ProjectChanges = Partial<ProjectDraft & { archived: boolean }>;

/** Every project command answers the project: the lists and pages refetch theirs. */
function useProjectMutation<Input>(send: (input: Input) => Promise<ProjectDto>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.projects.all }),
  });
}

const at = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

export const useCreateProject = () =>
  useProjectMutation((draft: ProjectDraft) =>
    api<ProjectDto>('/api/projects', { method: 'POST', body: draft, offline: 'fail' }),
  );

export const useUpdateProject = (id: string) =>
  useProjectMutation((changes: ProjectChanges) =>
    api<ProjectDto>(at(id), { method: 'PATCH', body: changes, offline: 'fail' }),
  );

export const useSetProjectMember = (id: string) =>
  useProjectMutation(({ userId, role }: { userId: string; role: ProjectRole }) =>
    api<ProjectDto>(`${at(id)}/members/${encodeURIComponent(userId)}`, {
      method: 'PUT',
      body: { role },
      offline: 'fail',
    }),
  );

export const useRemoveProjectMember = (id: string) =>
  useProjectMutation((userId: string) =>
    api<ProjectDto>(`${at(id)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE', offline: 'fail' }),
  );

/** Whether `user` may change the project: admins, and its leads. */
export function managesProject(user: { _id: string; role: string }, project: ProjectDto): boolean {
  return user.role === 'admin' || project.members.some((m) => m.user._id === user._id && m.role === 'lead');
}
