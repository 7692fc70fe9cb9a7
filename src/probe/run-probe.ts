import type { MarketData, MarketSnapshot, SnapshotOptions } from '../market/types.js';
import type { AnalysisResult } from '../result/types.js';
import type { RunRequest } from '../run/request.js';
import { runAndSave, type RunScope, type RunSession, type RunSinks } from '../run/run-and-save.js';
import { compareProbe, type ProbeComparison } from './compare.js';

/**
 * One market fetch for both runs of a probe: the second snapshot of the same ticker is
 * the first one's answer, so the named and the blind run read exactly the same data.
 */
export function sharedMarket(market: MarketData): MarketData {
  const snapshots = new Map<string, Promise<MarketSnapshot>>();
  return {
    ...market,
    snapshot(ticker: string, options: SnapshotOptions) {
      const key = ticker.trim().toUpperCase();
      let snapshot = snapshots.get(key);
      if (!snapshot) {
        snapshot = market.snapshot(ticker, options);
        snapshots.set(key, snapshot);
        // A failed fetch is not kept: it would fail the blind run for the named run's reason.
        snapshot.catch(() => snapshots.delete(key));
      }
      return snapshot;
    },
  };
}

export interface ProbeOutcome {
  named: AnalysisResult;
  blind: AnalysisResult;
  comparison: ProbeComparison;
}

/**
 * The named run, then the blind one, of the same request, each through runAndSave (saved
 * like any run), over one market fetch and with no search or MCP tools: the name is the
 * only difference between them.
 */
export async function runProbe(
  request: RunRequest,
  session: RunSession,
  sinksFor: (kind: 'named' | 'blind') => RunSinks,
  scope: RunScope,
): Promise<ProbeOutcome> {
  const shared: RunSession = { ...session, market: sharedMarket(session.market), search: null, mcp: null };
  const base: RunRequest = { ...request, blind: false, search: 'none' };
  const { mcpConfig: _mcpConfig, ...withoutMcp } = base;
  const named = await runAndSave(withoutMcp, shared, sinksFor('named'), scope);
  const blind = await runAndSave({ ...withoutMcp, blind: true }, shared, sinksFor('blind'), scope);
  return { named: named.result, blind: blind.result, comparison: compareProbe(named.result, blind.result) };
}
