import { describe, expect, it } from 'vitest';
import { checkDecision } from '../../src/guardrails/guardrails.js';
import type { GuardrailFinding } from '../../src/result/types.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { bad, sane } from '../support/guardrail-battery.js';
import { fakeMarket } from '../support/market.js';

const serious = (findings: GuardrailFinding[]) => findings.filter((finding) => finding.severity !== 'info');

describe('the trader battery: decisions a desk would send back', () => {
  it.each(bad)('$name → $severity $rule', ({ decision, market, rule, severity, says }) => {
    const findings = checkDecision(decision, market);
    const ofRule = findings.filter((candidate) => candidate.rule === rule);
    expect(ofRule, JSON.stringify(findings, null, 1)).not.toEqual([]);
    expect(ofRule.map((finding) => finding.severity)).toEqual(ofRule.map(() => severity));
    expect(
      ofRule.some((finding) => says.test(finding.message)),
      JSON.stringify(ofRule, null, 1),
    ).toBe(true);
  });

  it('every error in the battery is in a decision the run would flag; no bad decision passes clean', () => {
    for (const { name, decision, market } of bad) {
      expect(serious(checkDecision(decision, market)).length, name).toBeGreaterThan(0);
    }
  });
});

describe('the trader battery: decisions a desk would sign', () => {
  it.each(sane)('$name → no warning or error', ({ decision, market }) => {
    expect(serious(checkDecision(decision, market))).toEqual([]);
  });
});

describe('the trader battery leaves its inputs alone', () => {
  it('no decision or snapshot of the battery is mutated', () => {
    for (const { decision, market } of [...bad, ...sane]) {
      const before = structuredClone([decision, market]);
      checkDecision(Object.freeze(structuredClone(decision)), market && Object.freeze(structuredClone(market)));
      checkDecision(decision, market);
      expect([decision, market]).toEqual(before);
    }
  });
});

describe("a library caller's limits", () => {
  const risky = bad.find((entry) => entry.rule === 'risk-per-trade')!;

  it('an override left undefined keeps the default: the rule still fires', () => {
    const findings = checkDecision(risky.decision, risky.market, { maxRiskPct: undefined });
    expect(findings.map((finding) => finding.rule)).toContain('risk-per-trade');
  });

  it.each([Number.NaN, -1, Number.POSITIVE_INFINITY, '2' as unknown as number])(
    'a limit of %s is a ConfigError naming it, not a rule silently switched off',
    (value) => {
      expect(() => checkDecision(risky.decision, risky.market, { maxRiskPct: value })).toThrow(
        expect.objectContaining({
          name: 'ConfigError',
          message: `guardrail limit maxRiskPct must be a finite number of at least 0 (got ${String(value)})`,
        }),
      );
    },
  );

  it('analyze() refuses a bad limit before any model call', async () => {
    const model = new ScriptedModel({});
    await expect(
      analyze('ACME', { limits: { maxStopAtr: Number.NaN } }, { model, market: fakeMarket(), search: null }),
    ).rejects.toThrow(/guardrail limit maxStopAtr/);
    expect(model.requests).toEqual([]);
  });
});
