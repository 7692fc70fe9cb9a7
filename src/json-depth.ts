/**
 * How deep a parsed JSON document nests, measured without recursion. JSON.parse itself
 * copes with 200,000 levels; the recursive code that follows (zod validation, scrubbing,
 * sanitising, matching) does not, so files autohedge reads back (cassettes, saved runs)
 * are checked here first and refused with one clear line instead of a stack overflow.
 */

/** Far deeper than anything autohedge writes (a request with tool schemas is about 15 levels). */
export const maximumNesting = 256;

/** The path where `value` nests deeper than `limit`, or null; iterative, so any depth is safe to measure. */
export function nestingBeyond(value: unknown, limit: number = maximumNesting): string | null {
  const pending: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: 'top level' }];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (typeof current.value !== 'object' || current.value === null) continue;
    if (current.depth >= limit) return current.path;
    for (const [key, child] of Object.entries(current.value)) {
      const path = current.depth === 0 ? key : `${current.path}.${key}`;
      // Only the first few levels of a path are worth printing.
      pending.push({ value: child, depth: current.depth + 1, path: current.depth < 4 ? path : current.path });
    }
  }
  return null;
}
