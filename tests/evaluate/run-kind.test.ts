import { describe, expect, it } from 'vitest';
import { runKindOf, splitLines, splitSummaries, type SplitRow } from '../../src/evaluate/run-kind.js';

const scored = (signedReturn: number, excess: number) => ({
  horizon: 5,
  outcome: 'horizon',
  signedReturn,
  excess,
  buyAndHold: { stockReturn: signedReturn, benchmarkReturn: 0 },
});
const row = (kind: Partial<SplitRow>, signedReturn: number): SplitRow => ({
  contamination: 'clean',
  action: 'BUY',
  problem: null,
  horizons: [scored(signedReturn, signedReturn / 2)],
  ...kind,
});

describe('evaluate by run kind', () => {
  it('reads blind and the stability bucket from a saved result', () => {
    expect(runKindOf({})).toEqual({ blind: false, stability: null });
    const stability = { k: 3, agreement: 2 / 3, actions: { BUY: 2, SELL: 1, HOLD: 0 }, spread: {} as never, failed: 0 };
    expect(runKindOf({ blind: { alias: 'Company A', scale: 2 }, stability })).toEqual({
      blind: true,
      stability: '>=0.67',
    });
  });

  it('splits blind from named and by stability, per contamination label and horizon; nothing when neither exists', () => {
    const rows = [
      row({ blind: true, stability: '1.0' }, 0.04),
      row({ blind: true, stability: '<0.67' }, -0.02),
      row({ blind: false }, 0.01),
      row({ blind: false, contamination: 'contaminated' }, 0.03),
      row({ blind: false, action: 'HOLD' }, 0.5),
      row({ blind: true, problem: 'no bars' }, 0.9),
    ];
    const splits = splitSummaries(rows, [5]);
    const find = (split: string, group: string, contamination = 'clean') =>
      splits.find((item) => item.split === split && item.group === group && item.contamination === contamination);
    expect(find('blind', 'blind')).toMatchObject({ positions: 2, hits: 1, hitRate: 0.5, meanExcess: 0.01 / 2 });
    expect(find('blind', 'named')).toMatchObject({ positions: 1, hits: 1 });
    expect(find('blind', 'named', 'contaminated')).toMatchObject({ positions: 1 });
    expect(find('stability', '1.0')).toMatchObject({ positions: 1, hits: 1 });
    expect(find('stability', '<0.67')).toMatchObject({ positions: 1, hits: 0 });
    expect(find('stability', '>=0.67')).toBeUndefined();
    expect(splitLines(splits).join('\n')).toContain('blind blind · clean · 5 sessions: 2 position(s), hit rate 50.0 %');
    expect(splitSummaries([row({}, 0.01)], [5])).toEqual([]);
    expect(splitLines([])).toEqual([]);
  });
});
