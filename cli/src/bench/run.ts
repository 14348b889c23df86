export async function runBench(_root: string, _args: string[]): Promise<void> {
  throw new Error('bench: not yet');
}
