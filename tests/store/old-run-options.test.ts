/**
 * Runs saved before result.json's `options` took the request's names (flat limits,
 * `requestVersion`) still read: the store's reader gives every reader the request's names.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configurationKey } from '../../src/evaluate/configurations.js';
import { runSettingsLine } from '../../src/report/levels.js';
import { parseSavedResult } from '../../src/result/result-schema.js';
import type { AnalysisResult } from '../../src/result/types.js';

const oldText = readFileSync(new URL('../fixtures/store/result-old-options.json', import.meta.url), 'utf8');

function read(text: string): AnalysisResult {
  const parsed = parseSavedResult(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.result;
}

describe('a run saved with the old option names', () => {
  it('reads into the request names: limits and version', () => {
    const result = read(oldText);
    expect(result.options).toEqual({
      models: { director: 'gpt-4.1', quant: 'gpt-4.1' },
      baseUrlHost: 'api.openai.com',
      maxCostUsd: 1,
      search: 'exa',
      agents: [],
      samples: 3,
      minAgreement: 0.6,
      asOf: { kind: 'historical', day: '2026-10-30' },
      version: 1,
      limits: { maxPositionPct: 7.5, maxRiskPct: 1.5, minRewardRisk: 2 },
    });
    expect(runSettingsLine(result)).toContain('max position 7.5% · max risk 1.5% · min reward/risk 2.00');
  });

  it('keys the same configuration as the same run saved with the new names', () => {
    const old = read(oldText);
    const raw = JSON.parse(oldText) as { options: Record<string, unknown> };
    const { maxPositionPct, maxRiskPct, minRewardRisk, requestVersion, ...rest } = raw.options;
    const renamed = {
      ...raw,
      options: { ...rest, version: requestVersion, limits: { maxPositionPct, maxRiskPct, minRewardRisk } },
    };
    expect(configurationKey(read(JSON.stringify(renamed)))).toBe(configurationKey(old));
    // A different limit is a different configuration: the limits are really read.
    const other = {
      ...renamed,
      options: { ...renamed.options, limits: { maxPositionPct: 5, maxRiskPct, minRewardRisk } },
    };
    expect(configurationKey(read(JSON.stringify(other)))).not.toBe(configurationKey(old));
  });

  it('an older run without the risk limits still reads, and says only what it has', () => {
    const raw = JSON.parse(oldText) as { options: Record<string, unknown> };
    delete raw.options.maxRiskPct;
    delete raw.options.minRewardRisk;
    delete raw.options.requestVersion;
    const result = read(JSON.stringify(raw));
    expect(result.options?.limits).toEqual({ maxPositionPct: 7.5 });
    expect(result.options?.version).toBeUndefined();
    expect(runSettingsLine(result)).not.toContain('max risk');
  });
});
