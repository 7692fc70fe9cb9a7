import { describe, expect, expectTypeOf, it } from 'vitest';
import { checkClaims, type ClaimsInput } from '../../src/claims/index.js';
import { parseSavedResult } from '../../src/result/result-schema.js';
import type { SavedPlan } from '../../src/result/types.js';
import { makeResult } from '../support/results.js';

describe('claims in the saved run', () => {
  it('a run saved with claims loads with them, as written', () => {
    const result = makeResult();
    const { claims, summary } = checkClaims(result);
    expect(claims.length).toBeGreaterThan(0);
    const parsed = parseSavedResult(JSON.stringify({ ...result, claims, claimsSummary: summary }));
    expect(parsed.ok && parsed.result.claims).toEqual(claims);
    expect(parsed.ok && parsed.result.claimsSummary).toEqual(summary);
  });

  it('a run saved before claims existed still loads, with none', () => {
    const {
      claims: _claims,
      claimsSummary: _summary,
      ...old
    } = makeResult() as ReturnType<typeof makeResult> & {
      claims?: unknown;
      claimsSummary?: unknown;
    };
    const parsed = parseSavedResult(JSON.stringify(old));
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.result.claims).toBeUndefined();
  });

  it('a claim of the wrong shape is a corrupt run, named', () => {
    const bad = { ...makeResult(), claims: [{ agent: 'quant', text: '53.6', status: 'maybe' }] };
    const parsed = parseSavedResult(JSON.stringify(bad));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(/^result\.json is not a saved run \(claims\[0\]/);
  });

  it('the plan is the result contract’s saved plan: one saved with some briefs, or none, is checked for what it holds', () => {
    // Checked by tsc: claims keeps no plan shape of its own.
    expectTypeOf<ClaimsInput['plan']>().toEqualTypeOf<SavedPlan | null>();
    const result = makeResult();
    const figure = result.market!.quote!.price!.toFixed(2);
    const plan: SavedPlan = { thesis: `Trading at ${figure}.`, briefs: { risk: `Size it below ${figure}.` } };
    const fields = (input: SavedPlan) =>
      checkClaims({ ...result, plan: input })
        .claims.filter((claim) => claim.field.startsWith('plan.'))
        .map((claim) => claim.field);
    expect(fields(plan)).toEqual(['plan.thesis', 'plan.briefs.risk']);
    expect(fields({ thesis: plan.thesis })).toEqual(['plan.thesis']);
  });
});
