/**
 * A replayed run asked for something the cassette does not hold. The interceptor
 * rejects the fetch with this error; SDKs wrap it (openai: APIConnectionError with
 * `cause`; yahoo-finance2 and exa-js let it through as is), so callers look for it
 * along the cause chain with findReplayMiss().
 */
import { CassetteError, findCause } from '../errors.js';

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

export function findReplayMiss(error: unknown): ReplayMissError | undefined {
  return findCause(error, (cause): cause is ReplayMissError => cause instanceof ReplayMissError);
}

export function isReplayMiss(error: unknown): boolean {
  return findReplayMiss(error) !== undefined;
}
