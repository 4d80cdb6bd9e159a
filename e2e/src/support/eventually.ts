export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it yields a value (not undefined/false), failing after `timeoutMs` with what it awaited. */
export async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000, everyMs = 100, awaited = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`${awaited} not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}
