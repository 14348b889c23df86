import { Skeleton } from './ui/skeleton';

/**
 * The bug pages' pending state. Its own module: route options other than the
 * component stay in the entry chunk, which must not carry the detail view.
 */
export function BugDetailSkeleton() {
  return (
    <div role="status" aria-label="Loading" className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <div className="space-y-6 lg:col-span-2">
        <Skeleton className="h-56 rounded-xl" />
        <Skeleton className="h-48 rounded-xl" />
      </div>
      <div className="space-y-6">
        <Skeleton className="h-48 rounded-xl" />
        <Skeleton className="h-32 rounded-xl" />
      </div>
    </div>
  );
}
