import { defaultResamples, defaultSlippageBps, defaultSpreadBps } from '../../evaluate/defaults.js';
import type { SummaryOptions } from '../../evaluate/summary.js';
import type { EvaluateCliOptions } from '../command-table.js';

/** `evaluate`'s attribution options (src/cli/option-catalogue.ts) as the summary takes them. */
export function summaryOptionsOf(
  options: Partial<
    Pick<EvaluateCliOptions, 'sectorBenchmarks' | 'spreadBps' | 'slippageBps' | 'notional' | 'trials' | 'resamples'>
  >,
): SummaryOptions {
  // The MCP evaluate tool leaves them out: the CLI's defaults, restated nowhere.
  return {
    sectorBenchmarks: options.sectorBenchmarks ?? false,
    resamples: options.resamples ?? defaultResamples,
    costs: {
      spreadBps: options.spreadBps ?? defaultSpreadBps,
      slippageBps: options.slippageBps ?? defaultSlippageBps,
      notional: options.notional ?? null,
    },
    ...(options.trials === undefined ? {} : { trials: options.trials }),
  };
}
