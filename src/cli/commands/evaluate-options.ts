import { z } from 'zod';
import { defaultSlippageBps, defaultSpreadBps } from '../../evaluate/costs.js';
import { defaultResamples } from '../../evaluate/attribution.js';
import type { SummaryOptions } from '../../evaluate/summary.js';

/** `evaluate`'s attribution options (--sector-benchmarks, costs, --trials, --resamples), checked as they cross in. */

function number(flag: string, check: (value: number) => boolean, rule: string) {
  return z
    .string()
    .refine((value) => /^\d+(\.\d+)?$/.test(value.trim()) && check(Number(value)), {
      error: (issue) => `${flag} must be ${rule} (got '${String(issue.input).slice(0, 40)}')`,
    })
    .transform(Number);
}

export const attributionOptionShape = {
  sectorBenchmarks: z.boolean().default(false),
  spreadBps: number('--spread-bps', (value) => value <= 10_000, 'basis points from 0 to 10000').default(
    defaultSpreadBps,
  ),
  slippageBps: number('--slippage-bps', (value) => value <= 10_000, 'basis points from 0 to 10000').default(
    defaultSlippageBps,
  ),
  notional: number('--notional', (value) => value > 0 && value <= 1e12, 'a dollar amount above 0').optional(),
  trials: number(
    '--trials',
    (value) => Number.isInteger(value) && value >= 1 && value <= 1e9,
    'a whole number ≥ 1',
  ).optional(),
  resamples: number(
    '--resamples',
    (value) => Number.isInteger(value) && value >= 100 && value <= 100_000,
    'a whole number from 100 to 100000',
  ).default(defaultResamples),
};

type AttributionCliOptions = z.infer<z.ZodObject<typeof attributionOptionShape>>;

export function summaryOptionsOf(options: AttributionCliOptions): SummaryOptions {
  return {
    sectorBenchmarks: options.sectorBenchmarks,
    resamples: options.resamples,
    costs: { spreadBps: options.spreadBps, slippageBps: options.slippageBps, notional: options.notional ?? null },
    ...(options.trials === undefined ? {} : { trials: options.trials }),
  };
}
