import { randomBytes } from 'node:crypto';

/**
 * A saved evaluation's id, its folder under $AUTOHEDGE_HOME/evaluations/: the UTC second it
 * was made, then `-evaluation`, then the millisecond and a random tag, so two evaluations in
 * the same second (a script, a test) get two folders instead of the second overwriting the
 * first, and ids still sort by when they were made (the view reads the newest first).
 *
 * Ids saved before the suffix (`20261207T165500Z-evaluation`) are read as they are: readers
 * list folders and never parse an id, and an old id sorts before any newer one.
 */
export function makeEvaluationId(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const millisecond = String(at.getUTCMilliseconds()).padStart(3, '0');
  return `${stamp}-evaluation-${millisecond}${randomBytes(3).toString('hex')}`;
}
