import type { AnalysisResult, Decision } from '../result/types.js';

/** The decision's fields a reader compares, in reading order, with their labels. */
const compared: Array<[keyof Decision, string]> = [
  ['action', 'action'],
  ['conviction', 'conviction'],
  ['positionSizePct', 'size %'],
  ['orderType', 'order'],
  ['entry', 'entry'],
  ['stopLoss', 'stop'],
  ['takeProfit', 'target'],
  ['timeHorizon', 'horizon'],
];

/** `stop 101 → 94` for each compared field that differs; a rewritten rationale is said, not quoted. */
export function decisionChanges(before: Decision, after: Decision): string[] {
  const changes: string[] = [];
  for (const [field, label] of compared) {
    if (before[field] !== after[field]) changes.push(`${label} ${show(before[field])} → ${show(after[field])}`);
  }
  if (before.rationale !== after.rationale) changes.push('rationale rewritten');
  return changes;
}

/**
 * What the Director's review pass did, as plain sentences for the renderers; null
 * when no review was asked for. Text from the model is not included here.
 */
export function reviewLines(
  result: Pick<AnalysisResult, 'decisionHistory' | 'reviewFailure' | 'status'>,
): string[] | null {
  const history = result.decisionHistory ?? [];
  const first = history[0];
  if (!first) return null;
  const errors = first.guardrails.filter((finding) => finding.severity === 'error');
  if (history.length === 1 && !result.reviewFailure) return null;
  const lines = [
    `The first decision broke ${errors.length} guardrail rule${errors.length === 1 ? '' : 's'} (${errors.map((finding) => finding.rule).join(', ')}); the Director was asked to revise it.`,
  ];
  if (result.reviewFailure) {
    lines.push(
      result.reviewFailure.kind === 'replay-miss'
        ? 'The review could not be replayed (the cassette holds no review exchange): the first decision stands.'
        : `The review failed (${result.reviewFailure.message}): the decision before it stands.`,
    );
  }
  for (let index = 1; index < history.length; index += 1) {
    const changes = decisionChanges(history[index - 1]!.decision, history[index]!.decision);
    const left = history[index]!.guardrails.filter((finding) => finding.severity === 'error').length;
    const outcome = left === 0 ? 'it passes the rules' : `it still breaks ${left} rule${left === 1 ? '' : 's'}`;
    lines.push(`Revision ${index}: ${changes.length > 0 ? changes.join('; ') : 'nothing changed'} — ${outcome}.`);
  }
  return lines;
}

function show(value: Decision[keyof Decision]): string {
  if (value === null) return 'none';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  return String(value);
}
