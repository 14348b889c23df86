import { Button } from './ui/button';

export function LoadMore({
  hasMore,
  isLoading,
  onLoad,
  shown,
  total,
}: {
  hasMore: boolean;
  isLoading: boolean;
  onLoad: () => void;
  shown: number;
  total?: number;
}) {
  if (!hasMore) return null;
  return (
    <div className="flex flex-col items-center gap-2 py-6">
      <Button variant="secondary" onClick={onLoad} isLoading={isLoading}>
        Load more
      </Button>
      {total !== undefined ? (
        <p className="text-xs text-slate-500">
          Showing {shown.toLocaleString('en-US')} of {total.toLocaleString('en-US')}
        </p>
      ) : null}
    </div>
  );
}
