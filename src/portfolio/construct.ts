import { allocate, boundsOf, round4, stopFractionOf } from './allocate.js';
import { turnoverOf, violations, volatilityOf } from './constraints.js';
import { alignedReturns, ledoitWolf, minimumReturns } from './covariance.js';
import { PortfolioInfeasibleError } from './errors.js';
import { unknownSector } from './limits.js';
import { type BookModel, type NameModel, pct } from './model.js';
import { planOf } from './plan.js';
import { capTurnover, dropSmallTrades, repairRounding, sharesFor, weightsOf } from './shares.js';
import type { Clamp, DecisionInput, MarketInput, PortfolioInput, PortfolioPlan } from './types.js';

/**
 * The book constructor: a pure, deterministic function of the holdings, the decisions,
 * the market inputs and the limits. It proposes orders and never places one. Where
 * the limits cannot all be met it throws PortfolioInfeasibleError naming the conflict.
 */
export function constructPortfolio(input: PortfolioInput): PortfolioPlan {
  const { limits } = input;
  const excluded = [...(input.missing ?? [])].map((entry) => ({ ...entry }));
  const usable = usableDecisions(input.decisions, limits.includeFlagged, excluded);
  const book = bookModel(input, usable);
  const clamps: Clamp[] = [];
  const base = book.names.map((name) => (name.fixed ? name.currentWeight : 0));
  const baseBroken = violations(book, base, { turnover: false });
  if (baseBroken.length > 0) {
    const broken = baseBroken[0]!;
    throw new PortfolioInfeasibleError(
      `the limits cannot be met: the positions this run does not trade (held, not analysed, or excluded) already break one — ${broken.message}${untradedCause(broken.ticker, excluded)}`,
      broken.constraint,
    );
  }
  const allocation = allocate(book);
  clamps.push(...allocation.clamps);
  const capped = capTurnover(book, allocation.weights);
  if (capped.conflict) throw new PortfolioInfeasibleError(`the limits cannot be met: ${capped.conflict}`, 'turnover');
  const binding = [...allocation.binding];
  if (capped.clamp) {
    clamps.push(capped.clamp);
    book.names.forEach((name, index) => {
      if (!name.fixed && capped.weights[index] !== allocation.weights[index]) binding[index] = 'turnover';
    });
  }
  const rounded = sharesFor(book, capped.weights);
  const repaired = repairRounding(book, rounded);
  if (repaired.broken) {
    throw new PortfolioInfeasibleError(
      `the limits cannot be met in ${limits.fractional ? 'fractional' : 'whole'} shares: ${repaired.broken}${limits.fractional ? '' : ' (--fractional may fit)'}`,
      'whole-shares',
    );
  }
  clamps.push(...roundingClamps(book, rounded, repaired.shares));
  const small = dropSmallTrades(book, repaired.shares);
  clamps.push(...small.clamps);
  for (const clamp of small.clamps) {
    const index = book.names.findIndex((name) => name.ticker === clamp.ticker);
    if (index >= 0 && small.shares[index] === book.names[index]!.currentShares) binding[index] = 'min-trade';
  }
  const finalBroken = violations(book, weightsOf(book, small.shares));
  if (finalBroken.length > 0) {
    throw new PortfolioInfeasibleError(
      `the limits cannot be met: ${finalBroken[0]!.message}`,
      finalBroken[0]!.constraint,
    );
  }
  return planOf({ input, book, shares: small.shares, clamps, binding, excluded });
}

/** Why a held name is not traded: its exclusion (no saved decision, or a flagged one), or that none was asked for. */
function untradedCause(
  ticker: string | undefined,
  excluded: ReadonlyArray<{ ticker: string; reason: string }>,
): string {
  if (ticker === undefined) return '';
  const entry = excluded.find((candidate) => candidate.ticker === ticker);
  if (entry) return `: ${entry.reason}`;
  return `: no decision of it was asked for (name it, run \`autohedge analyze ${ticker}\`, or --analyze)`;
}

/** Flagged decisions are left out unless --include-flagged; each exclusion is listed. */
function usableDecisions(
  decisions: readonly DecisionInput[],
  includeFlagged: boolean,
  excluded: Array<{ ticker: string; reason: string }>,
): Map<string, DecisionInput> {
  const usable = new Map<string, DecisionInput>();
  // By ticker, then newest first: should a caller pass two for one ticker, the newest counts, whatever the order.
  const key = (decision: DecisionInput) => `${decision.asOf}|${decision.runId}`;
  const ordered = [...decisions].sort((a, b) =>
    a.ticker !== b.ticker ? (a.ticker < b.ticker ? -1 : 1) : key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0,
  );
  const seen = new Set<string>();
  for (const decision of ordered) {
    if (seen.has(decision.ticker)) continue;
    seen.add(decision.ticker);
    if (decision.flagged && !includeFlagged) {
      excluded.push({
        ticker: decision.ticker,
        reason: `run ${decision.runId} was flagged by the guardrails (use --include-flagged to size it anyway)`,
      });
      continue;
    }
    usable.set(decision.ticker, decision);
  }
  return usable;
}

function bookModel(input: PortfolioInput, usable: Map<string, DecisionInput>): BookModel {
  const prices = new Map(input.market.map((entry) => [entry.ticker, entry]));
  const held = new Map(input.holdings.positions.map((position) => [position.symbol, position]));
  const tickers = [...new Set([...held.keys(), ...usable.keys()])].sort();
  const marketOf = (ticker: string): MarketInput => {
    const market = prices.get(ticker);
    if (!market || !Number.isFinite(market.price) || market.price <= 0) {
      throw new PortfolioInfeasibleError(`no usable price for ${ticker}: the book cannot be valued`, 'nav');
    }
    checkCurrency(ticker, market, held.get(ticker)?.currency ?? null, baseCurrencyOf(input));
    return market;
  };
  const nav = tickers.reduce(
    (sum, ticker) => sum + (held.get(ticker)?.quantity ?? 0) * marketOf(ticker).price,
    input.holdings.cash,
  );
  // Below a dollar, the cents the output rounds to are most of the book.
  if (!(nav >= 1)) {
    throw new PortfolioInfeasibleError(
      `the book's net asset value is ${nav.toFixed(2)} ${baseCurrencyOf(input)}: nothing can be sized against it`,
      'nav',
    );
  }
  const names = tickers.map((ticker) => nameModel(ticker, marketOf(ticker), held.get(ticker)?.quantity ?? 0, nav));
  for (const name of names) {
    const decision = usable.get(name.ticker);
    attachDecision(name, decision ? inBookCurrency(decision, prices.get(name.ticker)?.fx) : null, input.limits);
  }
  return { nav, names, limits: input.limits, covariance: covarianceFor(input, names) };
}

function nameModel(ticker: string, market: MarketInput, quantity: number, nav: number): NameModel {
  const weight = (quantity * market.price) / nav;
  return {
    ticker,
    sector: market.sector?.trim() || unknownSector,
    price: market.price,
    currentShares: quantity,
    currentWeight: weight,
    fixed: true,
    decision: null,
    stopFraction: null,
    low: weight,
    high: weight,
  };
}

function attachDecision(name: NameModel, decision: DecisionInput | null, limits: PortfolioInput['limits']): void {
  if (!decision) return;
  name.fixed = false;
  name.decision = decision;
  name.stopFraction = stopFractionOf(decision, name.price);
  Object.assign(name, boundsOf(decision, name.currentWeight, name.stopFraction, limits));
}

export function baseCurrencyOf(input: PortfolioInput): string {
  return input.baseCurrency ?? 'USD';
}

/**
 * Every listing is valued in the book's currency: one already in it, or one converted at
 * the as-of day's rate (`market.fx`). One with no rate is refused, never taken at 1.0.
 * A holding's own currency must be the listing's.
 */
function checkCurrency(ticker: string, market: MarketInput, holding: string | null, base: string): void {
  const listing = market.fx?.from ?? market.currency;
  if (market.currency !== null && market.currency.toUpperCase() !== base) {
    throw new PortfolioInfeasibleError(
      `${ticker} is in ${market.currency} and no ${market.currency}→${base} rate for the as-of day was found: it cannot be valued in ${base} (never at 1.0)`,
      'currency',
    );
  }
  if (holding !== null && holding.toUpperCase() !== base && holding.toUpperCase() !== listing?.toUpperCase()) {
    throw new PortfolioInfeasibleError(
      `${ticker} is held in ${holding} but listed in ${listing ?? 'an unknown currency'}: fix the holdings file`,
      'currency',
    );
  }
}

/** A decision's levels (in the listing's currency) in the book's, as the converted price is. */
function inBookCurrency(decision: DecisionInput, fx: MarketInput['fx']): DecisionInput {
  if (!fx) return decision;
  const convert = (value: number | null) => (value === null ? null : value * fx.rate);
  return { ...decision, entry: convert(decision.entry), stopLoss: convert(decision.stopLoss) };
}

function covarianceFor(input: PortfolioInput, names: NameModel[]): number[][] | null {
  // An empty book has no risk to estimate: its volatility is zero.
  if (names.length === 0) return [];
  const series = names.map((name) => ({
    ticker: name.ticker,
    closes: input.market.find((entry) => entry.ticker === name.ticker)?.closes ?? [],
  }));
  const aligned = alignedReturns(series);
  if (aligned.returns.length >= minimumReturns) return ledoitWolf(aligned.returns).matrix;
  if (input.limits.targetVolPct !== null) {
    throw new PortfolioInfeasibleError(
      `--target-vol-pct needs at least ${minimumReturns} daily returns common to every name in the book; there are ${aligned.returns.length}`,
      'history',
    );
  }
  return null;
}

/** A step that rounding repair took, logged per name. */
function roundingClamps(book: BookModel, rounded: readonly number[], repaired: readonly number[]): Clamp[] {
  const clamps: Clamp[] = [];
  book.names.forEach((name, index) => {
    if (rounded[index] === repaired[index]) return;
    clamps.push({
      ticker: name.ticker,
      constraint: 'whole-shares',
      before: round4(pct((rounded[index]! * name.price) / book.nav)),
      after: round4(pct((repaired[index]! * name.price) / book.nav)),
      message: `${name.ticker}: ${rounded[index]} → ${repaired[index]} shares so the rounded book still meets every limit`,
    });
  });
  return clamps;
}

export { turnoverOf, volatilityOf };
