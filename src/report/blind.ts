import { madeOf } from '../pipeline/stability.js';
import type { AnalysisResult } from '../result/types.js';
import type { Tone } from './view-types.js';

/**
 * The lines a blind run and a sampled run carry at the top of every report: what the
 * models saw, and how much the decision moved when asked again.
 */
export function blindBanner(result: Pick<AnalysisResult, 'blind'>): string | null {
  if (!result.blind) return null;
  const { alias, scale } = result.blind;
  return `BLIND — the models saw "${alias}", prices scaled so the last close was 100 (real = blind × ${scale.toFixed(4)}) and days as session offsets; the decision's levels here are real prices, the desks' words quote blind ones`;
}

export function stabilityBanner(result: Pick<AnalysisResult, 'stability'>): string | null {
  const stability = result.stability;
  if (!stability) return null;
  const { actions, spread } = stability;
  const level = (name: string, value: number | null) => (value === null ? null : `${name} ${value.toFixed(2)}`);
  const spreads = [
    level('size', spread.positionSizePct),
    level('entry', spread.entry),
    level('stop', spread.stopLoss),
    level('target', spread.takeProfit),
  ].filter((part): part is string => part !== null);
  const failed = stability.failed > 0 ? `, ${stability.failed} without a decision` : '';
  return `STABILITY — ${stability.k} samples of the decision${madeOf(stability)}: BUY ${actions.BUY}, SELL ${actions.SELL}, HOLD ${actions.HOLD}${failed} · agreement ${Math.round(stability.agreement * 100)} %${spreads.length > 0 ? ` · spread ${spreads.join(', ')}` : ''}`;
}

/** A sampled decision flagged as unstable reads as bad news; one that held, as good. */
export function stabilityTone(result: Pick<AnalysisResult, 'guardrails'>): Tone {
  return (result.guardrails ?? []).some((finding) => finding.rule === 'unstable-decision') ? 'bad' : 'good';
}
