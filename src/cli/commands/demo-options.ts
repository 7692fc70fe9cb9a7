import { UsageError } from '../../errors.js';
import { defaultLimits } from '../../guardrails/limits.js';
import type { AnalyzeCliOptions } from '../command-table.js';

/**
 * One cassette at most, and under --demo only what the demo cassette holds: the checks of
 * every command that takes --demo and runs analyses (analyze, probe, enqueue).
 */
export function checkReplayFlags(
  options: DemoFlags & { record?: string; replay?: string; demo?: boolean; asOf?: string },
): void {
  if ([options.record, options.replay, options.demo].filter(Boolean).length > 1) {
    throw new UsageError('--record, --replay and --demo cannot be combined');
  }
  if (!options.demo) return;
  checkDemoOptions(options);
  if (options.asOf !== undefined)
    throw new UsageError('--demo replays a live run of its own day; it cannot be combined with --as-of');
}

/**
 * The demo cassette holds the requests of the default models, search and limits only: any of
 * these would send a request it does not hold, so say so before starting, in one line.
 */
function checkDemoOptions(options: DemoFlags): void {
  // The limits reach only the Director's prompt, the search only Sentiment.
  const agents = options.agent ?? [];
  const director = agents.length === 0;
  const sentiment = director || agents.includes('sentiment');
  const changed = [
    options.model !== undefined ? '--model' : null,
    sentiment && options.search !== undefined && options.search !== 'exa' ? '--search' : null,
    director && changedLimit(options.maxPosition, defaultLimits.maxPositionPct) ? '--max-position' : null,
    director && changedLimit(options.maxRisk, defaultLimits.maxRiskPct) ? '--max-risk' : null,
    director && changedLimit(options.minRewardRisk, defaultLimits.minRewardRisk) ? '--min-reward-risk' : null,
  ].filter((flag): flag is string => flag !== null);
  if (changed.length > 0) {
    throw new UsageError(
      `the demo is recorded with the default models, search and guardrail limits: ${changed.join(', ')} cannot be combined with --demo (record your own cassette with --record)`,
    );
  }
}

/** The flags checkDemoOptions reads: each command with --demo (analyze, probe, enqueue) has some of them. */
export type DemoFlags = Partial<
  Pick<AnalyzeCliOptions, 'agent' | 'model' | 'search' | 'maxPosition' | 'maxRisk' | 'minRewardRisk'>
>;

function changedLimit(value: number | undefined, recorded: number): boolean {
  return value !== undefined && value !== recorded;
}
