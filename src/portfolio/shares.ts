import { netOf, turnoverOf, violations } from './constraints.js';
import { type BookModel, pct, type Violation } from './model.js';
import { round4 } from './allocate.js';
import type { Clamp } from './types.js';

/**
 * From target weights to share counts: the turnover cap (a blend of the current book
 * and the target, which keeps every other limit because each is convex), whole shares
 * rounded toward zero exposure, a repair of what rounding broke, and the minimum
 * trade. Pure and deterministic.
 */

/** Fractional share counts are kept to six decimals. */
export const fractionalDigits = 6;

export interface TurnoverResult {
  weights: number[];
  clamp: Clamp | null;
  /** The limit still broken at the most turnover allowed (then the caller refuses). */
  conflict: string | null;
}

/** The target pulled toward the current book until its turnover fits the cap. */
export function capTurnover(book: BookModel, target: readonly number[]): TurnoverResult {
  const cap = book.limits.maxTurnoverPct;
  const turnover = turnoverOf(book, target);
  if (cap === null || turnover <= cap / 100) return { weights: [...target], clamp: null, conflict: null };
  const share = cap / 100 / turnover;
  const weights = book.names.map((name, index) => name.currentWeight + share * (target[index]! - name.currentWeight));
  const broken = violations(book, weights, { turnover: false });
  const clamp: Clamp = {
    constraint: 'turnover',
    before: round4(pct(turnover)),
    after: round4(cap),
    message: `every trade scaled to ${(share * 100).toFixed(1)} % of its size to keep turnover within --max-turnover-pct ${cap}`,
  };
  if (broken.length > 0) {
    return {
      weights,
      clamp,
      conflict: `--max-turnover-pct ${cap} is below the trading needed to meet the other limits (at that turnover, ${broken[0]!.message}); the full rebalance turns over ${pct(turnover).toFixed(2)} %`,
    };
  }
  return { weights, clamp, conflict: null };
}

/**
 * Shares for each name: pinned names keep theirs. Whole-share trades (a holding's own
 * fraction, from reinvested dividends, is kept unless the position closes): each trade
 * rounded toward no trade, a close sells everything, a flip from long to short is whole
 * on the short side. --fractional: the target rounded toward zero at 6 decimals.
 */
export function sharesFor(book: BookModel, weights: readonly number[]): number[] {
  return book.names.map((name, index) => {
    if (name.fixed) return name.currentShares;
    const exact = (weights[index]! * book.nav) / name.price;
    // A hair of float noise must not cost a share (9.9999999 is 10).
    const toward = (value: number, digits: number) =>
      Math.sign(value) * (Math.floor((Math.abs(value) + 1e-7) * 10 ** digits) / 10 ** digits);
    if (book.limits.fractional) return clean(toward(exact, fractionalDigits));
    if (Math.abs(exact) < 1e-9) return 0;
    const current = name.currentShares;
    if (current !== 0 && Math.sign(exact) !== Math.sign(current)) return clean(toward(exact, 0));
    return clean(current + toward(exact - current, 0));
  });
}

/** No −0, and no float dust on a fraction the holding had. */
function clean(value: number): number {
  const rounded = Math.round(value * 10 ** fractionalDigits) / 10 ** fractionalDigits;
  return rounded === 0 ? 0 : rounded;
}

export function weightsOf(book: BookModel, shares: readonly number[]): number[] {
  return book.names.map((name, index) => (shares[index]! * name.price) / book.nav);
}

/**
 * Rounding can break a limit the exact weights met (a short rounded smaller spends
 * cash; a sale rounded up turns over more). Each step moves one decided name by one
 * unit — toward zero exposure, or toward its current shares for the turnover cap —
 * choosing, lowest conviction first, a move that breaks nothing new where one exists.
 * Returns the shares and the limit still broken, if any.
 */
export function repairRounding(book: BookModel, start: readonly number[]): { shares: number[]; broken: string | null } {
  const shares = [...start];
  for (let step = 0; step < 5000; step += 1) {
    const broken = violations(book, weightsOf(book, shares));
    if (broken.length === 0) return { shares, broken: null };
    const kinds = new Set(broken.map((violation) => violation.constraint));
    const moves = candidateMoves(book, shares, broken[0]!);
    // The first few candidates are tried for a clean move: a large book stays fast.
    const clean = moves.slice(0, 8).find((move) => {
      const trial = [...shares];
      trial[move.index] = move.shares;
      return violations(book, weightsOf(book, trial)).every((violation) => kinds.has(violation.constraint));
    });
    const chosen = clean ?? moves[0];
    if (!chosen) return { shares, broken: broken[0]!.message };
    shares[chosen.index] = chosen.shares;
  }
  return { shares, broken: violations(book, weightsOf(book, shares))[0]?.message ?? null };
}

function unitOf(book: BookModel, price: number): number {
  return book.limits.fractional
    ? Math.max(10 ** -fractionalDigits, Math.floor(((book.nav * 1e-4) / price) * 1e6) / 1e6)
    : 1;
}

/** One unit from `shares` toward `goal`, never past it. */
function stepToward(book: BookModel, shares: number, goal: number, price: number): number {
  const unit = unitOf(book, price);
  const next = shares > goal ? Math.max(goal, shares - unit) : Math.min(goal, shares + unit);
  return Math.round(next * 10 ** fractionalDigits) / 10 ** fractionalDigits;
}

interface Move {
  index: number;
  shares: number;
}

function candidateMoves(book: BookModel, shares: readonly number[], violation: Violation): Move[] {
  const weights = weightsOf(book, shares);
  const net = netOf(weights);
  const towardCurrent = violation.constraint === 'turnover';
  return book.names
    .map((name, index) => ({ name, index, held: shares[index]! }))
    .filter(({ name, held }) => !name.fixed && held !== (towardCurrent ? name.currentShares : 0))
    .filter(({ name, held }) => {
      if (violation.ticker !== undefined) return name.ticker === violation.ticker;
      if (violation.sector !== undefined) return name.sector === violation.sector;
      if (violation.constraint === 'cash-floor') return held > 0;
      if (violation.constraint === 'max-net') return net > 0 ? held > 0 : held < 0;
      return true;
    })
    .sort(
      (left, right) =>
        left.name.decision!.conviction - right.name.decision!.conviction ||
        (left.name.ticker < right.name.ticker ? -1 : 1),
    )
    .map(({ name, index, held }) => ({
      index,
      shares: stepToward(book, held, towardCurrent ? name.currentShares : 0, name.price),
    }));
}

/**
 * Trades worth less than --min-trade-usd are dropped (the name keeps its current
 * shares), in ticker order, unless dropping one would break a limit the book meets:
 * then it stays, and the log says why.
 */
export function dropSmallTrades(book: BookModel, start: readonly number[]): { shares: number[]; clamps: Clamp[] } {
  const shares = [...start];
  const clamps: Clamp[] = [];
  const minimum = book.limits.minTradeUsd;
  book.names.forEach((name, index) => {
    const notional = Math.abs(shares[index]! - name.currentShares) * name.price;
    if (name.fixed || notional === 0 || notional >= minimum) return;
    const before = shares[index]!;
    const brokenBefore = violations(book, weightsOf(book, shares)).length;
    shares[index] = name.currentShares;
    const broken = violations(book, weightsOf(book, shares));
    const beforePct = round4(pct((before * name.price) / book.nav));
    if (broken.length > brokenBefore || (broken.length > 0 && brokenBefore === 0)) {
      shares[index] = before;
      clamps.push({
        ticker: name.ticker,
        constraint: 'min-trade',
        before: beforePct,
        after: beforePct,
        message: `${name.ticker}: a ${notional.toFixed(2)} USD trade is below --min-trade-usd ${minimum} but kept: without it ${broken[0]!.message}`,
      });
      return;
    }
    clamps.push({
      ticker: name.ticker,
      constraint: 'min-trade',
      before: beforePct,
      after: round4(pct(name.currentWeight)),
      message: `${name.ticker}: a ${notional.toFixed(2)} USD trade is below --min-trade-usd ${minimum}: dropped`,
    });
  });
  return { shares, clamps };
}
