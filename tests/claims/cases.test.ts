import { describe, expect, it } from 'vitest';
import { claimCases } from '../../testkit/claims-cases.js';
import { scoreClaimCases } from '../../testkit/claims-score.js';

describe('the claims case set (issue 40)', () => {
  const score = scoreClaimCases();

  it('has at least 150 labelled figures of every kind', () => {
    expect(score.figures).toBeGreaterThanOrEqual(150);
    const labels = new Set(claimCases.flatMap((testCase) => testCase.figures.map(([, label]) => label)));
    expect([...labels].sort()).toEqual(['crossed', 'derived', 'none', 'ok', 'wrong']);
  });

  it('catches at least 95 % of wrong figures, flags at most 2 % of correct ones and marks 75 % of derived ones derived', () => {
    const report = score.misses.map((miss) => `${miss.label} ${miss.figure} → ${miss.got}: ${miss.text}`).join('\n');
    expect(score.recall.caught / score.recall.of, report).toBeGreaterThanOrEqual(0.95);
    expect(score.falseFlags.count / score.falseFlags.of, report).toBeLessThanOrEqual(0.02);
    expect(score.derived.count / score.derived.of, report).toBeGreaterThanOrEqual(0.75);
    expect(score.crossedNamed.count, report).toBe(score.crossedNamed.of);
  });
});
