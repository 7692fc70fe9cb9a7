import { demoBanner } from '../report/format.js';
import type { AnalysisResult, Decision } from '../result/types.js';

/**
 * `autohedge probe`: a named and a blind run of the same ticker and day, side by side.
 * Pure: the verdict is a function of the two results. `consistent` when both decided the
 * same action and every level both set lies within `toleranceAtr` ATR(14) of the other;
 * `differs` otherwise; `incomplete` when either run made no decision.
 */

export type ProbeVerdict = 'consistent' | 'differs' | 'incomplete';

/** Levels further apart than this many ATR(14) make the calls differ. */
export const probeToleranceAtr = 1;

export interface ProbeSide {
  runId: string;
  status: AnalysisResult['status'];
  action: Decision['action'] | null;
  conviction: number | null;
  positionSizePct: number | null;
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
}

export interface ProbeComparison {
  ticker: string;
  asOf: string;
  /** Both runs replayed the shipped demo cassette: synthetic data, scripted analyses. */
  demo: boolean;
  named: ProbeSide;
  blind: ProbeSide & { alias: string | null; scale: number | null };
  sameAction: boolean | null;
  /** ATR(14) of the real snapshot, the unit of the differences; null when the data had none. */
  atr: number | null;
  /** |named − blind| in ATR, per level both runs set (null otherwise). */
  levelDifferenceAtr: { entry: number | null; stopLoss: number | null; takeProfit: number | null };
  /** Percentage points. */
  sizeDifference: number | null;
  verdict: ProbeVerdict;
  toleranceAtr: number;
}

function side(result: AnalysisResult): ProbeSide {
  const decision = result.decision;
  return {
    runId: result.runId,
    status: result.status,
    action: decision?.action ?? null,
    conviction: decision?.conviction ?? null,
    positionSizePct: decision?.positionSizePct ?? null,
    entry: decision?.entry ?? null,
    stopLoss: decision?.stopLoss ?? null,
    takeProfit: decision?.takeProfit ?? null,
  };
}

export function compareProbe(
  named: AnalysisResult,
  blind: AnalysisResult,
  toleranceAtr = probeToleranceAtr,
): ProbeComparison {
  const left = side(named);
  const right = side(blind);
  const atr = usable(named.market?.indicators.atr14 ?? blind.market?.indicators.atr14 ?? null);
  const inAtr = (a: number | null, b: number | null) =>
    a === null || b === null || atr === null ? null : Math.abs(a - b) / atr;
  const levelDifferenceAtr = {
    entry: inAtr(left.entry, right.entry),
    stopLoss: inAtr(left.stopLoss, right.stopLoss),
    takeProfit: inAtr(left.takeProfit, right.takeProfit),
  };
  const decided = left.action !== null && right.action !== null;
  const sameAction = decided ? left.action === right.action : null;
  const within = Object.values(levelDifferenceAtr).every((value) => value === null || value <= toleranceAtr + 1e-9);
  return {
    ticker: named.ticker,
    asOf: named.asOf,
    demo: named.demo && blind.demo,
    named: left,
    blind: { ...right, alias: blind.blind?.alias ?? null, scale: blind.blind?.scale ?? null },
    sameAction,
    atr,
    levelDifferenceAtr,
    sizeDifference:
      left.positionSizePct === null || right.positionSizePct === null
        ? null
        : Math.abs(left.positionSizePct - right.positionSizePct),
    verdict: !decided ? 'incomplete' : sameAction && within ? 'consistent' : 'differs',
    toleranceAtr,
  };
}

function usable(value: number | null): number | null {
  return value !== null && Number.isFinite(value) && value > 0 ? value : null;
}

/** The comparison as the terminal shows it: the two calls in columns, then the verdict. */
export function renderProbe(comparison: ProbeComparison): string {
  const { named, blind } = comparison;
  const cell = (value: number | string | null, digits = 2) =>
    value === null ? '—' : typeof value === 'number' ? value.toFixed(digits) : value;
  const atr = (value: number | null) => (value === null ? '' : `${value.toFixed(2)} ATR`);
  const rows: Array<[string, string, string, string]> = [
    ['', 'named', `blind (${blind.alias ?? 'alias'})`, 'difference'],
    ['status', named.status, blind.status, ''],
    ['action', cell(named.action), cell(blind.action), comparison.sameAction === false ? 'differs' : ''],
    ['conviction', cell(named.conviction, 0), cell(blind.conviction, 0), ''],
    ['size %', cell(named.positionSizePct), cell(blind.positionSizePct), cell(comparison.sizeDifference)],
    ['entry', cell(named.entry), cell(blind.entry), atr(comparison.levelDifferenceAtr.entry)],
    ['stop', cell(named.stopLoss), cell(blind.stopLoss), atr(comparison.levelDifferenceAtr.stopLoss)],
    ['target', cell(named.takeProfit), cell(blind.takeProfit), atr(comparison.levelDifferenceAtr.takeProfit)],
  ];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((text, column) => text.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
  const verdict = verdictLine(comparison);
  const title = `PROBE ${comparison.ticker} as of ${comparison.asOf.slice(0, 10)}`;
  return [...(comparison.demo ? [demoBanner, ''] : []), title, '', ...lines, '', verdict, ''].join('\n');
}

function verdictLine(comparison: ProbeComparison): string {
  const tolerance = `${comparison.toleranceAtr} ATR`;
  if (comparison.verdict === 'incomplete') return 'verdict: incomplete — one of the runs made no decision';
  if (comparison.verdict === 'consistent')
    return `verdict: consistent — the same action with or without the name, every level within ${tolerance}`;
  return comparison.sameAction === false
    ? 'verdict: differs — the call changes when the model does not know which stock it is'
    : `verdict: differs — the same action, but a level moves more than ${tolerance} without the name`;
}
