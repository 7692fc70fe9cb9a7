import { ConfigError } from '../errors.js';
import { findCalendarOf } from '../market/calendar/index.js';
import type { MarketSnapshot } from '../market/types.js';
import { horizonSessions } from './horizon.js';
import { decisionSchema } from '../result/schemas.js';
import type { Decision, GuardrailFinding } from '../result/types.js';
import { formatZodIssue } from '../zod-issues.js';

// The limits and their defaults live apart, with no zod, so `--help` can show the defaults.
import { defaultLimits, type GuardrailLimits } from './limits.js';
export { defaultLimits, type GuardrailLimits };
/** The defaults with a caller's overrides; an override left undefined keeps the default (it never switches a rule off). */
export function resolveLimits(limits: Partial<GuardrailLimits> = {}): GuardrailLimits {
  const set = Object.entries(limits).filter(([, value]) => value !== undefined);
  for (const [name, value] of set) {
    // NaN or a string would switch its rule off without a word (every comparison with it is false).
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ConfigError(`guardrail limit ${name} must be a finite number of at least 0 (got ${String(value)})`);
    }
  }
  return { ...defaultLimits, ...(Object.fromEntries(set) as Partial<GuardrailLimits>) };
}

/**
 * The limits as the Director reads them in its decide task: the same numbers the
 * decision is then checked against, so it is never judged by rules it was not told.
 */
export function limitsForPrompt(limits: GuardrailLimits): string {
  const n = (value: number) => String(value);
  return [
    `- The deterministic guardrails check the decision against the MARKET DATA with these limits (a value exactly at a limit passes; ATR is ATR(14); where ATR is not available, one ATR is ${n(limits.fallbackAtrPct)} % of the price):`,
    `  - positionSizePct at most ${n(limits.maxPositionPct)}; the loss at the stop (positionSizePct × stop distance ÷ entry) at most ${n(limits.maxRiskPct)} % of the portfolio; conviction at least ${n(limits.minConvictionAtMaxSize)} at the maximum size, proportionally less for a smaller one;`,
    `  - a limit entry within ${n(limits.maxEntryAtr)} ATR of the last close; a market order, or a limit on the far side of the market, fills at the last close and its levels are judged there;`,
    `  - stop at least ${n(limits.minStopAtr)} ATR and at most ${n(limits.maxStopAtr)} ATR from the entry; reward/risk (target distance ÷ stop distance) at least ${n(limits.minRewardRisk)};`,
    `  - take-profit within ${n(limits.maxTargetAtrPerSqrtSession)} ATR × √(trading sessions in timeHorizon) of the entry, and at most ${n(limits.maxBeyond52WeekPct)} % beyond the 52-week high (BUY) or low (SELL);`,
    `  - stop at most ${n(limits.maxStopBeyond52WeekPct)} % beyond the 52-week low (BUY) or high (SELL).`,
  ].join('\n');
}

/** Sessions assumed when the horizon names no unit: a quarter, the lenient end. */
const defaultHorizonSessions = 63;
/** Comparisons at a limit pass despite floating-point noise (7.5 / 2.5 is not always 3). */
const tolerance = 1e-9;

type Add = (rule: string, severity: GuardrailFinding['severity'], message: string) => void;

/** A distance measured in ATR, or in percent of the price where ATR is missing. */
interface Ruler {
  /** Price units in one ATR (real or stood in). */
  atr: number;
  measure(distance: number): string;
  limit(atrs: number): string;
}

/** What the decision is judged against: the last price and the order's real fill. */
interface Reference {
  last: number;
  ruler: Ruler;
  /** Where the order fills: the last price for market orders and limits that fill at once. */
  fill: number;
  fillBasis: 'stated' | 'market' | 'marketable-limit';
}

/**
 * Deterministic checks of a decision against the data. Findings only: a decision is
 * never corrected, so the user sees exactly what the Director said and what is wrong
 * with it. `error` marks an order that is wrong or dangerous as written; `warning` one
 * that is doubtful; `info` context. Pure: neither argument is mutated.
 */
export function checkDecision(
  decision: Decision,
  market: MarketSnapshot | null,
  limits: Partial<GuardrailLimits> = {},
): GuardrailFinding[] {
  const bounds = resolveLimits(limits);
  const findings: GuardrailFinding[] = [];
  const add: Add = (rule, severity, message) => findings.push({ rule, severity, message });
  if (!validInput(decision, add)) return findings;

  checkSize(decision, bounds, add);
  const reference = referenceFor(decision, market, bounds, add);
  if (reference) checkPriceAge(market, add);
  if (decision.action === 'HOLD') {
    checkHoldLevels(decision, reference, add);
    return findings;
  }
  checkLevelsPresent(decision, add);
  const fill = reference?.fill ?? decision.entry;
  if (fill === null) {
    // A market order with no stated entry and no price: its stop and target are still unverifiable.
    unverifiable(decision, add);
    return findings;
  }
  checkSides(decision, fill, reference, add);
  checkRiskPerTrade(decision, fill, bounds, add);
  checkRewardRisk(decision, fill, reference, bounds, add);
  if (!reference) {
    unverifiable(decision, add);
    return findings;
  }
  checkEntryDistance(decision, reference, bounds, add);
  checkStopDistance(decision, reference, market, bounds, add);
  checkTargetReach(decision, reference, market, bounds, add);
  return findings;
}

/** Library callers get the same bounds as the model's schema: nothing else is checked on bad numbers. */
function validInput(decision: Decision, add: Add): boolean {
  const parsed = decisionSchema.safeParse(decision);
  if (parsed.success) return true;
  for (const issue of parsed.error.issues)
    add('invalid-decision', 'error', formatZodIssue(issue, { root: 'decision', input: decision }));
  return false;
}

function checkSize(decision: Decision, limits: GuardrailLimits, add: Add): void {
  const size = decision.positionSizePct;
  if (size > limits.maxPositionPct + tolerance) {
    add('position-size', 'error', `position size ${num(size)} % exceeds the ${num(limits.maxPositionPct)} % limit`);
  }
  if (decision.action === 'HOLD') {
    if (size > 0) add('hold-size', 'warning', `HOLD with a position size of ${num(size)} %: a HOLD opens no position`);
    return;
  }
  if (size === 0) {
    add('size-zero', 'warning', `${decision.action} with a position size of 0 %: the order trades nothing`);
    return;
  }
  const needed = (limits.minConvictionAtMaxSize * Math.min(size, limits.maxPositionPct)) / limits.maxPositionPct;
  if (decision.conviction + tolerance < needed) {
    add(
      'conviction-size',
      'warning',
      `conviction ${num(decision.conviction)} is low for a ${num(size)} % position (at least ${num(needed)} expected; ${num(limits.minConvictionAtMaxSize)} at the ${num(limits.maxPositionPct)} % maximum)`,
    );
  }
}

function referenceFor(
  decision: Decision,
  market: MarketSnapshot | null,
  limits: GuardrailLimits,
  add: Add,
): Reference | null {
  const last = usablePrice(market?.indicators.lastClose) ?? usablePrice(market?.quote.price);
  if (last === null) return null;
  const ruler = rulerFor(market?.indicators.atr14 ?? null, last, limits, add);
  const reference: Reference = { last, ruler, ...fillFor(decision, last) };
  checkStatedEntry(decision, reference, limits, add);
  return reference;
}

/** Where an order fills at the last price, how far its stated entry is from that price. */
function checkStatedEntry(
  decision: Decision,
  { last, ruler, fillBasis }: Reference,
  limits: GuardrailLimits,
  add: Add,
): void {
  if (decision.entry === null) return;
  const distance = Math.abs(decision.entry - last);
  if (fillBasis === 'market' && distance > limits.minStopAtr * ruler.atr + tolerance) {
    add(
      'market-entry',
      'warning',
      `a market order fills near the last price ${num(last)}, not the stated entry ${num(decision.entry)} (${ruler.measure(distance)} away); levels are judged at ${num(last)}`,
    );
  }
  if (fillBasis !== 'marketable-limit') return;
  const buy = decision.action === 'BUY';
  add(
    'marketable-limit',
    'info',
    `the ${decision.action} limit ${num(decision.entry)} is ${buy ? 'above' : 'below'} the last price ${num(last)}: it fills at once, so levels are judged at ${num(last)}`,
  );
  // A limit that far through the market caps nothing, and was set from some other price than the market's.
  if (distance > limits.maxEntryAtr * ruler.atr * (1 + tolerance)) {
    add(
      'entry-distance',
      'warning',
      `the ${decision.action} limit ${num(decision.entry)} is ${ruler.measure(distance)} ${buy ? 'above' : 'below'} the last price ${num(last)} (limit ${ruler.limit(limits.maxEntryAtr)}): it fills at once, at any price ${buy ? 'up' : 'down'} to ${num(decision.entry)}`,
    );
  }
}

function usablePrice(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function rulerFor(atr: number | null, last: number, limits: GuardrailLimits, add: Add): Ruler {
  if (atr !== null && Number.isFinite(atr) && atr > 0) {
    return { atr, measure: (distance) => `${(distance / atr).toFixed(2)} ATR`, limit: (atrs) => `${num(atrs)} ATR` };
  }
  add(
    'atr-missing',
    'info',
    `ATR(14) is not available: distances are judged in percent of the price, one ATR taken as ${num(limits.fallbackAtrPct)} %`,
  );
  const pct = (distance: number) => `${((distance / last) * 100).toFixed(2)} %`;
  return {
    atr: (last * limits.fallbackAtrPct) / 100,
    measure: pct,
    limit: (atrs) => `${num(atrs * limits.fallbackAtrPct)} %`,
  };
}

/** A market order, and a limit on the far side of the market, fill at about the last price. */
function fillFor(decision: Decision, last: number): Pick<Reference, 'fill' | 'fillBasis'> {
  if (decision.action === 'HOLD') return { fill: last, fillBasis: 'stated' };
  if (decision.orderType === 'market' || decision.entry === null) return { fill: last, fillBasis: 'market' };
  const marketable = decision.action === 'BUY' ? decision.entry > last : decision.entry < last;
  return marketable ? { fill: last, fillBasis: 'marketable-limit' } : { fill: decision.entry, fillBasis: 'stated' };
}

/**
 * The prices the levels are judged against should be at least as new as the last
 * session that closed before the run's clock: the quote, and the daily bars whose
 * last close is the reference price.
 */
function checkPriceAge(market: MarketSnapshot | null, add: Add): void {
  const asOf = market ? new Date(market.asOf) : null;
  // Sessions on the ticker's own exchange; a symbol of no known exchange has no calendar to judge by.
  const calendar = market ? findCalendarOf(market.symbol) : null;
  if (!market || !asOf || Number.isNaN(asOf.getTime()) || !calendar) return;
  const lastSession = calendar.latestClosedSession(asOf);
  const before = `older than the last session (${lastSession}) before the run's clock ${asOf.toISOString()}`;
  const quoteTime = market.quote.priceTime ? new Date(market.quote.priceTime) : null;
  if (quoteTime && !Number.isNaN(quoteTime.getTime()) && calendar.localDay(quoteTime) < lastSession) {
    add('stale-quote', 'warning', `the quote is from ${calendar.localDay(quoteTime)}, ${before}`);
  }
  const { asOfBar, lastClose } = market.indicators;
  if (usablePrice(lastClose) !== null && asOfBar && /^\d{4}-\d{2}-\d{2}$/.test(asOfBar) && asOfBar < lastSession) {
    add(
      'stale-bars',
      'warning',
      `the last close ${num(lastClose as number)} the levels are judged against is from ${asOfBar}, ${before}`,
    );
  }
}

function checkHoldLevels(decision: Decision, reference: Reference | null, add: Add): void {
  const carried = presentLevels(decision);
  if (carried.length === 0) return;
  if (!reference) {
    for (const [name, value] of carried)
      add('unverifiable', 'warning', `${name} ${num(value)} cannot be checked: no market price is available`);
    return;
  }
  add(
    'hold-levels',
    'info',
    `HOLD carries levels (${carried.map(([name, value]) => `${name} ${num(value)}`).join(', ')}); they are informational only`,
  );
}

function checkLevelsPresent(decision: Decision, add: Add): void {
  const { action } = decision;
  if (decision.entry === null) {
    if (decision.orderType === 'limit') add('entry-missing', 'error', `${action} limit order without an entry price`);
    else
      add('entry-missing', 'warning', `${action} market order without a stated entry price; judged at the last price`);
  }
  if (decision.stopLoss === null) add('stop-missing', 'error', `${action} without a stop-loss: the loss is unbounded`);
  if (decision.takeProfit === null)
    add('target-missing', 'warning', `${action} without a take-profit: reward/risk cannot be checked`);
}

function checkSides(decision: Decision, fill: number, reference: Reference | null, add: Add): void {
  const buy = decision.action === 'BUY';
  const at =
    reference && reference.fillBasis !== 'stated'
      ? `the fill price ${num(fill)} (${fillWords(reference)})`
      : `the entry ${num(fill)}`;
  const { stopLoss, takeProfit } = decision;
  if (stopLoss !== null && (buy ? stopLoss >= fill : stopLoss <= fill)) {
    add(
      'stop-side',
      'error',
      `stop-loss ${num(stopLoss)} is ${buy ? 'at or above' : 'at or below'} ${at} for a ${decision.action}: it is stopped out on fill`,
    );
  }
  if (takeProfit !== null && (buy ? takeProfit <= fill : takeProfit >= fill)) {
    add(
      'target-side',
      'error',
      `take-profit ${num(takeProfit)} is ${buy ? 'at or below' : 'at or above'} ${at} for a ${decision.action}`,
    );
  }
}

function fillWords(reference: Reference): string {
  return reference.fillBasis === 'market'
    ? 'a market order fills at the last price'
    : 'the limit fills at once at the last price';
}

function checkRiskPerTrade(decision: Decision, fill: number, limits: GuardrailLimits, add: Add): void {
  if (decision.stopLoss === null || decision.positionSizePct === 0) return;
  const stopFraction = Math.abs(fill - decision.stopLoss) / fill;
  const riskPct = decision.positionSizePct * stopFraction;
  if (riskPct > limits.maxRiskPct + tolerance) {
    add(
      'risk-per-trade',
      'error',
      `the trade risks ${riskPct.toFixed(2)} % of the portfolio (size ${num(decision.positionSizePct)} % × stop ${(stopFraction * 100).toFixed(1)} % from ${num(fill)}; limit ${num(limits.maxRiskPct)} %)`,
    );
  }
}

function checkRewardRisk(
  decision: Decision,
  fill: number,
  reference: Reference | null,
  limits: GuardrailLimits,
  add: Add,
): void {
  const { stopLoss, takeProfit, entry } = decision;
  if (stopLoss === null || takeProfit === null) return;
  const ratio = rewardRisk(decision.action, fill, stopLoss, takeProfit);
  if (ratio === null || ratio + tolerance >= limits.minRewardRisk) return;
  const stated = entry !== null && entry !== fill ? rewardRisk(decision.action, entry, stopLoss, takeProfit) : null;
  const where = reference && reference.fillBasis !== 'stated' ? ` at the fill price ${num(fill)}` : '';
  const versus = stated !== null ? ` (${stated.toFixed(2)} at the stated entry ${num(entry as number)})` : '';
  add(
    'reward-risk',
    'warning',
    `reward/risk is ${ratio.toFixed(2)}${where}${versus}, below ${num(limits.minRewardRisk)}`,
  );
}

/** null when either level is on the wrong side (the side rules report that). */
function rewardRisk(action: Decision['action'], fill: number, stop: number, target: number): number | null {
  const risk = action === 'BUY' ? fill - stop : stop - fill;
  const reward = action === 'BUY' ? target - fill : fill - target;
  return risk > 0 && reward > 0 ? reward / risk : null;
}

function unverifiable(decision: Decision, add: Add): void {
  for (const [name, value] of presentLevels(decision)) {
    add('unverifiable', 'warning', `${name} ${num(value)} cannot be checked against the market: no price is available`);
  }
}

function checkEntryDistance(decision: Decision, reference: Reference, limits: GuardrailLimits, add: Add): void {
  if (decision.entry === null || reference.fillBasis !== 'stated') return;
  const distance = Math.abs(decision.entry - reference.last);
  if (distance > limits.maxEntryAtr * reference.ruler.atr * (1 + tolerance)) {
    add(
      'entry-distance',
      'error',
      `entry ${num(decision.entry)} is ${reference.ruler.measure(distance)} from the last price ${num(reference.last)} (limit ${reference.ruler.limit(limits.maxEntryAtr)})`,
    );
  }
}

function checkStopDistance(
  decision: Decision,
  reference: Reference,
  market: MarketSnapshot | null,
  limits: GuardrailLimits,
  add: Add,
): void {
  const { stopLoss } = decision;
  if (stopLoss === null) return;
  const distance = Math.abs(reference.fill - stopLoss);
  const { ruler } = reference;
  const direction = stopLoss < reference.fill ? 'below' : 'above';
  if (distance < limits.minStopAtr * ruler.atr * (1 - tolerance)) {
    add(
      'stop-tight',
      'error',
      `stop ${num(stopLoss)} is ${ruler.measure(distance)} ${direction} the entry ${num(reference.fill)} (min ${ruler.limit(limits.minStopAtr)}): ordinary daily noise stops it out`,
    );
    return;
  }
  const wide = distance > limits.maxStopAtr * ruler.atr * (1 + tolerance);
  if (wide) {
    add(
      'stop-wide',
      'warning',
      `stop ${num(stopLoss)} is ${ruler.measure(distance)} ${direction} the entry ${num(reference.fill)} (max ${ruler.limit(limits.maxStopAtr)})`,
    );
  }
  checkStopRange(decision.action, stopLoss, market, limits, wide, add);
}

/**
 * A long's stop far below the year's low (a short's far above its high) guards nothing the
 * year has seen: a warning; an error when the stop is also wider than the ATR limit allows.
 */
function checkStopRange(
  action: Decision['action'],
  stop: number,
  market: MarketSnapshot | null,
  limits: GuardrailLimits,
  wide: boolean,
  add: Add,
): void {
  const beyond = beyondRange(action === 'BUY' ? 'below-low' : 'above-high', stop, market);
  if (beyond === null || beyond.pct <= limits.maxStopBeyond52WeekPct * (1 + tolerance)) return;
  add(
    'stop-range',
    wide ? 'error' : 'warning',
    `stop ${num(stop)} is ${beyond.pct.toFixed(1)} % ${beyond.words} ${num(beyond.level)} (limit ${num(limits.maxStopBeyond52WeekPct)} %)${wide ? `, and wider than ${num(limits.maxStopAtr)} ATR` : ''}`,
  );
}

/** How far, in percent of the level, a price lies beyond the 52-week low or high; null when it does not or the range is unknown. */
function beyondRange(
  side: 'below-low' | 'above-high',
  price: number,
  market: MarketSnapshot | null,
): { pct: number; level: number; words: string } | null {
  if (side === 'above-high') {
    const high = usablePrice(market?.indicators.high52w) ?? usablePrice(market?.quote.fiftyTwoWeekHigh);
    if (high === null || price <= high) return null;
    return { pct: ((price - high) / high) * 100, level: high, words: 'above the 52-week high' };
  }
  const low = usablePrice(market?.indicators.low52w) ?? usablePrice(market?.quote.fiftyTwoWeekLow);
  if (low === null || price >= low) return null;
  return { pct: ((low - price) / low) * 100, level: low, words: 'below the 52-week low' };
}

function checkTargetReach(
  decision: Decision,
  reference: Reference,
  market: MarketSnapshot | null,
  limits: GuardrailLimits,
  add: Add,
): void {
  const { takeProfit } = decision;
  if (takeProfit === null) return;
  const parsed = horizonSessions(decision.timeHorizon);
  const sessions = parsed ?? defaultHorizonSessions;
  if (parsed === null)
    add(
      'horizon-unknown',
      'info',
      `time horizon "${decision.timeHorizon}" names no unit; the target is judged over ${sessions} sessions`,
    );
  const distance = Math.abs(takeProfit - reference.fill);
  const reach = limits.maxTargetAtrPerSqrtSession * Math.sqrt(sessions);
  const farReach = distance > reach * reference.ruler.atr * (1 + tolerance);
  if (farReach) {
    add(
      'target-reach',
      'warning',
      `take-profit ${num(takeProfit)} is ${reference.ruler.measure(distance)} from the entry ${num(reference.fill)}; over "${decision.timeHorizon}" (${sessions} sessions) at most ${reference.ruler.limit(reach)} is realistic (${num(limits.maxTargetAtrPerSqrtSession)} ATR × √sessions)`,
    );
  }
  check52WeekRange(decision.action, takeProfit, market, limits, farReach, add);
}

/** A target far past the year's range: a warning; an error when it is also beyond the realistic reach in ATR. */
function check52WeekRange(
  action: Decision['action'],
  target: number,
  market: MarketSnapshot | null,
  limits: GuardrailLimits,
  farReach: boolean,
  add: Add,
): void {
  const beyond = beyondRange(action === 'BUY' ? 'above-high' : 'below-low', target, market);
  if (beyond === null || beyond.pct <= limits.maxBeyond52WeekPct * (1 + tolerance)) return;
  add(
    'target-range',
    farReach ? 'error' : 'warning',
    `take-profit ${num(target)} is ${beyond.pct.toFixed(1)} % ${beyond.words} ${num(beyond.level)} (limit ${num(limits.maxBeyond52WeekPct)} %)${farReach ? ', and beyond the realistic reach in ATR' : ''}`,
  );
}

function presentLevels(decision: Decision): Array<[string, number]> {
  const levels: Array<[string, number | null]> = [
    ['entry', decision.entry],
    ['stopLoss', decision.stopLoss],
    ['takeProfit', decision.takeProfit],
  ];
  return levels.filter((level): level is [string, number] => level[1] !== null);
}

function num(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
