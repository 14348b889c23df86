import type { ApiTokenDto } from '@bugtrail/domain/vocabulary';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/** The caller's API tokens. Its own module: the profile route's loader starts it, and a loader's imports load with the app. */
export const apiTokensQuery = () =>
  queryOptions({
    queryKey: queryKeys.profile.apiTokens,
    queryFn: () => api<{ tokens: ApiTokenDto[] }>('/api/tokens'),
  });
