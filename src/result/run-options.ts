import { z } from 'zod';

/**
 * A saved run's `options` under the request's names. Runs saved before they were the request
 * (autohedge 0.x up to this change) kept the limits flat (`maxPositionPct`, `maxRiskPct`,
 * `minRewardRisk`) and the version as `requestVersion`: they are read into `limits` and
 * `version`, so every reader sees one shape.
 */
export function upgradeRunOptions(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'limits' in value) return value;
  const { requestVersion, maxPositionPct, maxRiskPct, minRewardRisk, ...rest } = value as Record<string, unknown>;
  const limits = Object.fromEntries(
    Object.entries({ maxPositionPct, maxRiskPct, minRewardRisk }).filter(([, limit]) => limit !== undefined),
  );
  return { ...rest, ...(requestVersion !== undefined ? { version: requestVersion } : {}), limits };
}

/** `options` as the listing and the renderers read it; any other field passes through. */
export const savedRunOptionsSchema = z.preprocess(
  upgradeRunOptions,
  z.looseObject({
    models: z.record(z.string(), z.string()),
    baseUrlHost: z.string(),
    limits: z.looseObject({ maxPositionPct: z.number() }),
    maxCostUsd: z.number().nullable(),
    search: z.string(),
    agents: z.array(z.string()),
  }),
);
