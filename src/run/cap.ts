import { SpendingCap } from '../pipeline/budget.js';

/**
 * The one --max-cost cap of a scope — one command (however many tickers), one
 * universe, one MCP call, one queue job — shared by every model call and search in it.
 * The replay rule lives here alone: under a replayed cassette, once the cap has refused
 * a call it refuses every later one (what follows a cap differs from the recording, so
 * the run ends degraded as it would live, never as a stale cassette).
 */
export function scopeCap(
  maxCostUsd: number | null | undefined,
  session: { replaying: boolean },
  label?: string,
): SpendingCap | null {
  return maxCostUsd == null
    ? null
    : new SpendingCap(maxCostUsd, { stopAfterCap: session.replaying, ...(label ? { label } : {}) });
}
