/**
 * `work` over every item with at most `limit` in flight, results in input order.
 * Reading thousands of saved runs with Promise.all opens every file at once and runs
 * out of file descriptors (EMFILE under `ulimit -n 1024`); a few at a time is as fast
 * on a local disk and never does. `work` should not throw: one rejection rejects the
 * whole map, as Promise.all would.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** How many run files the store reads at once: well under any sane descriptor limit. */
export const storeReadsInFlight = 16;
