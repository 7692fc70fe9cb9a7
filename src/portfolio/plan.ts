import { calendarOf } from '../market/calendar/index.js';
import { round4 } from './allocate.js';
import { grossOf, netOf, turnoverOf, volatilityOf } from './constraints.js';
import { type BookModel, pct } from './model.js';
import { fractionalDigits, weightsOf } from './shares.js';
import type { Clamp, ConstraintName, FxRate, Order, PortfolioInput, PortfolioPlan, Target } from './types.js';

/**
 * The constructed book as output: fixed rounding (weights 4 decimals of a percent,
 * money in cents, shares whole or 6 decimals) and a stable order (by ticker), so the
 * same inputs print the same bytes.
 */

interface PlanParts {
  input: PortfolioInput;
  book: BookModel;
  shares: number[];
  clamps: Clamp[];
  binding: Array<ConstraintName | null>;
  excluded: Array<{ ticker: string; reason: string }>;
}

const cents = (value: number) => {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? 0 : rounded;
};
const shareCount = (value: number) => {
  const rounded = Math.round(value * 10 ** fractionalDigits) / 10 ** fractionalDigits;
  return rounded === 0 ? 0 : rounded;
};
const exactPrice = (value: number) => Math.round(value * 1e6) / 1e6;

export function planOf(parts: PlanParts): PortfolioPlan {
  const { input, book, shares, binding } = parts;
  const weights = weightsOf(book, shares);
  const staleTickers = new Set(
    input.market
      .filter((entry) => entry.priceDay !== null && entry.priceDay < lastSessionOf(entry.ticker, input.clock))
      .map((entry) => entry.ticker),
  );
  const targets: Target[] = book.names.map((name, index) => ({
    ticker: name.ticker,
    action: name.decision?.action ?? 'HELD',
    currentShares: shareCount(name.currentShares),
    shares: shareCount(shares[index]!),
    currentWeight: round4(pct(name.currentWeight)),
    targetWeight: round4(pct(weights[index]!)),
    positionValue: cents(shares[index]! * name.price),
    tradeValue: cents(Math.abs(shareCount(shares[index]! - name.currentShares)) * name.price),
    price: exactPrice(name.price),
    decisionRunId: name.decision?.runId ?? null,
    binding: binding[index] ?? null,
    ...(name.decision ? { decisionSizePct: name.decision.positionSizePct } : {}),
    stale: staleTickers.has(name.ticker),
  }));
  const orders = ordersOf(book, shares, binding);
  // At the market price, like the weights: a limit that fills better only leaves more cash.
  const traded = book.names.reduce((sum, name, index) => sum + (shares[index]! - name.currentShares) * name.price, 0);
  const gross = grossOf(weights);
  const net = netOf(weights);
  const volatility = volatilityOf(book, weights);
  return {
    status: 'proposed',
    nav: cents(book.nav),
    cashBefore: cents(input.holdings.cash),
    cash: cents(input.holdings.cash - traded),
    targets,
    orders,
    clamps: parts.clamps,
    held: heldList(book, parts.excluded),
    excluded: [...parts.excluded].sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0)),
    risk: {
      grossPct: round4(pct(gross)),
      netPct: round4(pct(net)),
      estVolPct: volatility === null ? null : round4(pct(volatility)),
      cashPct: round4(pct(1 - net)),
      turnoverPct: round4(pct(turnoverOf(book, weights))),
    },
    warnings: [...staleWarnings(input, staleTickers), ...decisionAgeWarnings(book, input.clock)],
    limits: input.limits,
    baseCurrency: input.baseCurrency ?? 'USD',
    fx: ratesUsed(input),
  };
}

function ordersOf(book: BookModel, shares: readonly number[], binding: ReadonlyArray<ConstraintName | null>): Order[] {
  const orders: Order[] = [];
  book.names.forEach((name, index) => {
    const change = shareCount(shares[index]! - name.currentShares);
    if (change === 0 || name.fixed) return;
    const side = change > 0 ? 'BUY' : 'SELL';
    const decision = name.decision!;
    const withDecision = decision.action === side && decision.orderType === 'limit' && decision.entry !== null;
    // A BUY sized below the weight held sells the difference: a trim, named so.
    const trim = side === 'SELL' && decision.action === 'BUY';
    const cut = binding[index] ? `; cut by ${binding[index]}` : '';
    const short = side === 'SELL' && shares[index]! < 0 ? `; short ${shareCount(-shares[index]!)} shares` : '';
    orders.push({
      ticker: name.ticker,
      side,
      quantity: Math.abs(change),
      ...(withDecision ? { limitPrice: decision.entry! } : {}),
      // At the last price, like the targets and the cash: a limit that fills better only leaves more cash.
      tradeValue: cents(Math.abs(change) * name.price),
      ...(trim ? { trim: true } : {}),
      reason: `${decision.action}, sized ${decision.positionSizePct} % (conviction ${decision.conviction}, run ${decision.runId})${trim ? ': trim' : ''}${cut}${short}`,
    });
  });
  return orders;
}

function heldList(book: BookModel, excluded: ReadonlyArray<{ ticker: string }>): PortfolioPlan['held'] {
  const excludedTickers = new Set(excluded.map((entry) => entry.ticker));
  return book.names
    .filter((name) => name.fixed && name.currentShares !== 0)
    .map((name) => ({
      ticker: name.ticker,
      quantity: shareCount(name.currentShares),
      price: exactPrice(name.price),
      weight: round4(pct(name.currentWeight)),
      reason: excludedTickers.has(name.ticker)
        ? 'held; its decision was excluded, so it is kept as is'
        : 'held, not analysed: kept as is',
    }));
}

function staleWarnings(input: PortfolioInput, stale: ReadonlySet<string>): string[] {
  return input.market
    .filter((entry) => stale.has(entry.ticker))
    .map(
      (entry) =>
        `${entry.ticker}: the price ${entry.price} is from ${entry.priceDay}, older than the last session (${lastSessionOf(entry.ticker, input.clock)})`,
    )
    .sort();
}

/** A ticker's last session closed by the book's clock, on its own exchange. */
function lastSessionOf(ticker: string, clock: string): string {
  return calendarOf(ticker).latestClosedSession(new Date(clock));
}

/** Sessions a decision did not see: it was made before its ticker's last session closed (counted on its exchange). */
function decisionAgeWarnings(book: BookModel, clock: string): string[] {
  return book.names.flatMap((name) => {
    const decision = name.decision;
    const at = decision ? new Date(decision.asOf) : null;
    if (!decision || !at || Number.isNaN(at.getTime())) return [];
    const calendar = calendarOf(name.ticker);
    const lastSession = calendar.latestClosedSession(new Date(clock));
    const day = calendar.localDay(at);
    let sessions = 0;
    for (let session = lastSession; session > day && sessions < 1000; session = calendar.adjacentSession(session, -1)) {
      sessions += 1;
    }
    if (sessions === 0) return [];
    return [
      `${name.ticker}: the decision (run ${decision.runId}) is as of ${day}, ${sessions} session${sessions === 1 ? '' : 's'} before the book's last session (${lastSession})`,
    ];
  });
}

/** One rate per currency the book converted, in currency order. */
function ratesUsed(input: PortfolioInput): FxRate[] {
  const byCurrency = new Map<string, FxRate>();
  for (const entry of input.market) if (entry.fx) byCurrency.set(entry.fx.from, entry.fx);
  return [...byCurrency.values()].sort((left, right) => (left.from < right.from ? -1 : 1));
}
