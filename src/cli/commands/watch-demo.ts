import { UsageError } from '../../errors.js';
import { defaultLimits } from '../../guardrails/guardrails.js';
import type { WatchCliOptions } from '../command-table.js';

/**
 * `watch --demo`: one cycle over the demo's tickers, replaying the shipped demo cassette
 * (one recorded session, the default models, search and limits; no key). These are the
 * options it cannot honour, refused in one line before anything starts.
 */
export function checkWatchDemo(options: WatchCliOptions): void {
  if (options.record !== undefined || options.replay !== undefined)
    throw new UsageError('--record, --replay and --demo cannot be combined');
  if (options.every !== undefined)
    throw new UsageError('--demo replays one recorded session: it runs one cycle (drop --every)');
  if (options.asOf !== undefined)
    throw new UsageError('--demo replays a live cycle of its own day; it cannot be combined with --as-of');
  if (options.enqueue) throw new UsageError('--demo runs its cycle here: it cannot be combined with --enqueue');
  // The replay answers every request from the recording: a webhook would never reach its hook.
  if (options.notify !== undefined)
    throw new UsageError(
      '--demo sends nothing off this machine: it cannot be combined with --notify (--notify-file writes the same payload to a file)',
    );
  const changed = [
    options.model !== undefined ? '--model' : null,
    options.search !== undefined && options.search !== 'exa' ? '--search' : null,
    options.maxPosition !== defaultLimits.maxPositionPct ? '--max-position' : null,
    options.maxRisk !== defaultLimits.maxRiskPct ? '--max-risk' : null,
    options.minRewardRisk !== defaultLimits.minRewardRisk ? '--min-reward-risk' : null,
  ].filter((flag): flag is string => flag !== null);
  if (changed.length > 0)
    throw new UsageError(
      `the demo is recorded with the default models, search and guardrail limits: ${changed.join(', ')} cannot be combined with --demo (record your own cassette with --record)`,
    );
}
