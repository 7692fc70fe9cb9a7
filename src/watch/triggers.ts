import type { Bar } from '../market/types.js';
import type { Decision } from '../result/types.js';

/**
 * The cheap, deterministic checks `autohedge watch` runs on market data to decide which
 * tickers need a fresh analysis. A pure function of the last call and the bars since:
 * no model, no clock of its own.
 */

export const triggerNames = ['stop-touched', 'target-touched', 'no-call', 'gap', 'move', 'earnings', 'stale'] as const;
export type TriggerName = (typeof triggerNames)[number];

/**
 * Most urgent first: a touched stop or target means the call's own plan has played out;
 * a ticker never analysed has no call at all; a gap or a large move means the data the
 * call read is no longer the market; earnings change the story; age is the least urgent.
 */
export const triggerPriority: Record<TriggerName, number> = Object.fromEntries(
  triggerNames.map((name, index) => [name, index]),
) as Record<TriggerName, number>;

export interface TriggerLimits {
  /** Sessions after which a call is stale (`--max-age`). */
  maxAgeSessions: number;
  /** A gap larger than this many 20-session daily volatilities (`--gap-sigma`). */
  gapSigma: number;
  /** A close this many ATRs from the price at the call (`--move-atr`). */
  moveAtr: number;
}

export const defaultTriggerLimits: TriggerLimits = { maxAgeSessions: 10, gapSigma: 2, moveAtr: 2 };

/** The last finished call on a ticker, as the saved run recorded it. */
export interface LastCall {
  runId: string;
  /** The as-of session (YYYY-MM-DD) of the call. */
  day: string;
  decision: Pick<Decision, 'action' | 'stopLoss' | 'takeProfit'>;
  /** The last close the call read; null when its run had no market data. */
  price: number | null;
}

/** What watch reads of a fresh snapshot. */
export interface TriggerMarket {
  /** Daily bars up to the cycle's as-of session, oldest first. */
  bars: readonly Bar[];
  atr14: number | null;
  earningsDate?: string | null;
}

export interface Trigger {
  name: TriggerName;
  /** One line for the delta report: what happened, with the numbers. */
  detail: string;
}

/** Every trigger that fires, most urgent first; none when nothing happened since the call. */
export function evaluateTriggers(call: LastCall | null, market: TriggerMarket, limits: TriggerLimits): Trigger[] {
  if (call === null) return [{ name: 'no-call', detail: 'never analysed' }];
  const since = market.bars.filter((bar) => bar.date > call.day);
  const found = [
    ...levelTouches(call, since),
    gapTrigger(market.bars, since, limits.gapSigma),
    moveTrigger(call, market, limits.moveAtr),
    earningsTrigger(call, market),
    since.length > limits.maxAgeSessions
      ? { name: 'stale' as const, detail: `the call is ${since.length} sessions old (limit ${limits.maxAgeSessions})` }
      : null,
  ].filter((trigger): trigger is Trigger => trigger !== null);
  return found.sort((a, b) => triggerPriority[a.name] - triggerPriority[b.name]);
}

/** The sessions since the call: its age in the report. */
export function sessionsSince(call: LastCall, bars: readonly Bar[]): number {
  return bars.filter((bar) => bar.date > call.day).length;
}

/** A BUY's stop is below (touched by a low), its target above; a SELL's the other way round. */
function levelTouches(call: LastCall, since: readonly Bar[]): Trigger[] {
  const { action, stopLoss, takeProfit } = call.decision;
  if (action === 'HOLD') return [];
  const long = action === 'BUY';
  const touch = (level: number | null, name: 'stop-touched' | 'target-touched', below: boolean): Trigger | null => {
    if (level === null || !Number.isFinite(level)) return null;
    const bar = since.find((candidate) => {
      const extreme = below ? candidate.low : candidate.high;
      return extreme !== null && (below ? extreme <= level : extreme >= level);
    });
    if (!bar) return null;
    const what = name === 'stop-touched' ? 'stop' : 'target';
    return {
      name,
      detail: `${what} ${level} touched on ${bar.date} (${below ? 'low' : 'high'} ${below ? bar.low : bar.high})`,
    };
  };
  return [touch(stopLoss, 'stop-touched', long), touch(takeProfit, 'target-touched', !long)].filter(
    (trigger): trigger is Trigger => trigger !== null,
  );
}

/**
 * An open far from the previous close, measured against the 20 sessions of daily
 * close-to-close volatility before it. Checked on every session since the call, so a
 * gap a skipped cycle missed is still seen.
 */
function gapTrigger(bars: readonly Bar[], since: readonly Bar[], gapSigma: number): Trigger | null {
  for (const bar of [...since].reverse()) {
    const index = bars.indexOf(bar);
    const previous = bars[index - 1];
    if (!previous || bar.open === null || previous.close === null || previous.close <= 0) continue;
    const sigma = dailyVolatility(bars.slice(Math.max(0, index - 20), index));
    if (sigma === null || sigma === 0) continue;
    const gap = bar.open / previous.close - 1;
    if (Math.abs(gap) > gapSigma * sigma) {
      return {
        name: 'gap',
        detail: `opened ${percent(gap)} from the previous close on ${bar.date} (${(Math.abs(gap) / sigma).toFixed(1)}σ of daily moves; limit ${gapSigma}σ)`,
      };
    }
  }
  return null;
}

function moveTrigger(call: LastCall, market: TriggerMarket, moveAtr: number): Trigger | null {
  const last = market.bars.at(-1);
  if (call.price === null || market.atr14 === null || market.atr14 <= 0 || !last || last.close === null) return null;
  const atrs = (last.close - call.price) / market.atr14;
  if (Math.abs(atrs) <= moveAtr) return null;
  return {
    name: 'move',
    detail: `closed ${last.close} against ${call.price} at the call: ${atrs > 0 ? '+' : ''}${atrs.toFixed(1)} ATR (limit ${moveAtr})`,
  };
}

function earningsTrigger(call: LastCall, market: TriggerMarket): Trigger | null {
  const day = market.earningsDate;
  const today = market.bars.at(-1)?.date;
  if (!day || !today || !(day > call.day && day <= today)) return null;
  return { name: 'earnings', detail: `earnings reported on ${day}, after the call of ${call.day}` };
}

/** Sample standard deviation of daily log returns; null with fewer than 5 returns. */
export function dailyVolatility(bars: readonly Bar[]): number | null {
  const returns: number[] = [];
  for (let index = 1; index < bars.length; index += 1) {
    const before = bars[index - 1]!.close;
    const after = bars[index]!.close;
    if (before !== null && after !== null && before > 0 && after > 0) returns.push(Math.log(after / before));
  }
  if (returns.length < 5) return null;
  const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length;
  const variance = returns.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (returns.length - 1);
  return Math.sqrt(variance);
}

function percent(fraction: number): string {
  return `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(2)} %`;
}
