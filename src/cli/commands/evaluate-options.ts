import type { SummaryOptions } from '../../evaluate/summary.js';
import type { EvaluateCliOptions } from '../command-table.js';

/** `evaluate`'s attribution options (src/cli/option-catalogue.ts) as the summary takes them. */
export function summaryOptionsOf(
  options: Pick<
    EvaluateCliOptions,
    'sectorBenchmarks' | 'spreadBps' | 'slippageBps' | 'notional' | 'trials' | 'resamples'
  >,
): SummaryOptions {
  return {
    sectorBenchmarks: options.sectorBenchmarks,
    resamples: options.resamples,
    costs: { spreadBps: options.spreadBps, slippageBps: options.slippageBps, notional: options.notional ?? null },
    ...(options.trials === undefined ? {} : { trials: options.trials }),
  };
}
