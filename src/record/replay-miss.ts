/**
 * A replayed run asked for something the cassette does not hold. The interceptor
 * rejects the fetch with this error; SDKs wrap it (openai: APIConnectionError with
 * `cause`; yahoo-finance2 and exa-js let it through as is), so callers look for it
 * along the cause chain with findReplayMiss().
 */
import { CassetteError } from '../errors.js';

export type ReplayMiss = { method: string; url: string; agent: string | null };

export class ReplayMissError extends CassetteError {
  readonly method: string;
  readonly url: string;
  readonly agent: string | null;
  readonly cassettePath: string;

  constructor(miss: ReplayMiss, cassettePath: string) {
    const sender = miss.agent === null ? '' : ` (agent: ${miss.agent})`;
    super(`no recorded response for ${miss.method} ${miss.url}${sender} in cassette '${cassettePath}'`);
    this.method = miss.method;
    this.url = miss.url;
    this.agent = miss.agent;
    this.cassettePath = cassettePath;
  }
}

/** SDKs nest the fetch failure a level or two deep; a bound keeps a cyclic chain from looping. */
const MAXIMUM_CAUSE_DEPTH = 8;

export function findReplayMiss(error: unknown): ReplayMissError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAXIMUM_CAUSE_DEPTH && current !== null && current !== undefined; depth += 1) {
    if (current instanceof ReplayMissError) return current;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return undefined;
}

export function isReplayMiss(error: unknown): boolean {
  return findReplayMiss(error) !== undefined;
}
