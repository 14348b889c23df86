/** Polls until `check` returns a value (for what arrives asynchronously, such as an AI reply). */
export async function eventually<T>(check: () => Promise<T | null | undefined>, attempts = 100): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met');
}
