import { modelsOf } from '../result/run-facts.js';
import canonicalize from 'canonicalize';
import type { AnalysisResult } from '../result/types.js';

/**
 * The configuration a run was made with, for the Deflated Sharpe Ratio's N (the number
 * of configurations tried): the model set × the prompt version × the guardrail limits ×
 * the search source, from the run's recorded options. Prompts ship with autohedge, so
 * the prompt version is the run's `promptVersion` when one is recorded, else the
 * autohedge version that made it. A run saved without its options is keyed by what it
 * does record (the models in its usage, its search provider), so it still counts.
 */

interface RecordedExtras {
  promptVersion?: unknown;
}

export function configurationKey(result: AnalysisResult): string {
  const options = result.options;
  const models = modelsOf(result);
  const promptVersion = (options as RecordedExtras | undefined)?.promptVersion ?? result.autohedgeVersion ?? null;
  // The same key as before `options` took the request's names (the store reads old runs into them).
  const limits = options
    ? {
        maxPositionPct: options.limits.maxPositionPct,
        maxRiskPct: options.limits.maxRiskPct,
        minRewardRisk: options.limits.minRewardRisk,
      }
    : null;
  const search = options?.search ?? result.search?.provider ?? null;
  return canonicalize({ models, promptVersion, limits, search }) ?? '';
}

/** N: the distinct configurations among these runs' keys (at least 1). */
export function distinctConfigurations(keys: readonly string[]): number {
  return Math.max(1, new Set(keys).size);
}
