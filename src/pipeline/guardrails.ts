import type { MarketSnapshot } from '../market/types.js';
import type { Decision, GuardrailFinding } from './types.js';

export interface GuardrailLimits {
  /** Largest position size allowed, percent of the portfolio. */
  maxPositionPct: number;
  /** How many ATR(14) the entry may sit from the last close. */
  maxEntryAtr: number;
  /** Below this reward/risk the decision is warned. */
  minRewardRisk: number;
}

export const defaultLimits: GuardrailLimits = { maxPositionPct: 10, maxEntryAtr: 3, minRewardRisk: 1 };

/**
 * Deterministic checks of a decision against the data. Findings only: a decision
 * is never silently corrected, so the user sees exactly what the Director said
 * and what is wrong with it.
 */
export function checkDecision(decision: Decision, market: MarketSnapshot | null, limits: GuardrailLimits = defaultLimits): GuardrailFinding[] {
  const findings: GuardrailFinding[] = [];
  const add = (rule: string, severity: GuardrailFinding['severity'], message: string) => findings.push({ rule, severity, message });
  const { action, entry, stopLoss, takeProfit } = decision;
  const levels = { entry, stopLoss, takeProfit };

  if (decision.positionSizePct > limits.maxPositionPct) {
    add('position-size', 'error', `position size ${formatNumber(decision.positionSizePct)} % exceeds the ${formatNumber(limits.maxPositionPct)} % limit`);
  }

  if (action === 'HOLD') {
    const carried = Object.entries(levels).filter(([, value]) => value !== null);
    if (carried.length > 0) {
      add('hold-levels', 'info', `HOLD carries levels (${carried.map(([name, value]) => `${name} ${formatNumber(value as number)}`).join(', ')}); they are informational only`);
    }
    if (decision.positionSizePct > 0) {
      add('hold-size', 'info', `HOLD with a position size of ${formatNumber(decision.positionSizePct)} %: no new order is implied`);
    }
    return findings;
  }

  // BUY or SELL from here on.
  if (entry === null) add('entry-missing', 'warning', `${action} without an entry price`);
  if (stopLoss === null) add('stop-missing', 'warning', `${action} without a stop-loss`);
  if (entry !== null && stopLoss !== null) {
    const wrongSide = action === 'BUY' ? stopLoss >= entry : stopLoss <= entry;
    if (wrongSide) {
      add('stop-side', 'error', `stop-loss ${formatNumber(stopLoss)} is ${action === 'BUY' ? 'at or above' : 'at or below'} the entry ${formatNumber(entry)} for a ${action}`);
    }
  }
  if (entry !== null && takeProfit !== null) {
    const wrongSide = action === 'BUY' ? takeProfit <= entry : takeProfit >= entry;
    if (wrongSide) {
      add('target-side', 'error', `take-profit ${formatNumber(takeProfit)} is ${action === 'BUY' ? 'at or below' : 'at or above'} the entry ${formatNumber(entry)} for a ${action}`);
    }
  }
  if (entry !== null && stopLoss !== null && takeProfit !== null) {
    const risk = Math.abs(entry - stopLoss);
    const reward = Math.abs(takeProfit - entry);
    const sidesRight = action === 'BUY' ? stopLoss < entry && takeProfit > entry : stopLoss > entry && takeProfit < entry;
    if (sidesRight && risk > 0 && reward / risk < limits.minRewardRisk) {
      add('reward-risk', 'warning', `reward/risk is ${(reward / risk).toFixed(2)}, below ${formatNumber(limits.minRewardRisk)}`);
    }
  }

  const lastClose = market?.indicators.lastClose ?? market?.quote.price ?? null;
  const atr = market?.indicators.atr14 ?? null;
  const present = Object.entries(levels).filter(([, value]) => value !== null) as Array<[string, number]>;
  if (lastClose === null) {
    for (const [name, value] of present) {
      add('unverifiable', 'warning', `${name} ${formatNumber(value)} cannot be checked: no market price is available`);
    }
    return findings;
  }
  if (entry !== null) {
    if (atr === null) {
      add('entry-distance', 'warning', `entry ${formatNumber(entry)} cannot be checked against ATR(14): not available`);
    } else {
      const distance = Math.abs(entry - lastClose);
      if (distance > limits.maxEntryAtr * atr) {
        add(
          'entry-distance',
          'error',
          `entry ${formatNumber(entry)} is ${(distance / atr).toFixed(1)} ATR from the last close ${formatNumber(lastClose)} (limit ${formatNumber(limits.maxEntryAtr)} ATR)`,
        );
      }
    }
  }
  return findings;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
