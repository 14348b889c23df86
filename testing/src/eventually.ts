/**
 * Polls until `check` returns a value (for what arrives asynchronously, such as an AI reply).
 * It waits for the event, not for a time: a busy machine makes it slower, never red. The guard
 * (at least 50 s, or `attempts` × 100 ms when more) only ends a wait that would otherwise last
 * until the test's timeout, so that a condition never met fails with its own message.
 */
export async function eventually<T>(check: () => Promise<T | null | undefined>, attempts = 100): Promise<T> {
  const guard = Date.now() + Math.max(50_000, attempts * 100);
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > guard) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
