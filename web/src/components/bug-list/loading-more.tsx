/** Said while the next page of a windowed list loads (the list grows as it is scrolled). */
export function LoadingMore({ isLoading }: { isLoading: boolean }) {
  return (
    <p role="status" className="py-3 text-center text-xs text-slate-500">
      {isLoading ? 'Loading more bugs…' : ''}
    </p>
  );
}
