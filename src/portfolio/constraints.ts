import { portfolioVolatility } from './covariance.js';
import { type BookModel, describePct, pct, type Violation, weightTolerance } from './model.js';

/**
 * Every limit checked against a book of weights: the one definition of "meets the
 * limits", used to build the book, to repair its rounding, and by the tests. Pure.
 * `turnover: false` leaves the turnover cap out (it is met by blending afterwards).
 */
export function violations(book: BookModel, weights: readonly number[], options = { turnover: true }): Violation[] {
  const found: Violation[] = [];
  const { limits } = book;
  const over = (value: number, limit: number) => value > limit + weightTolerance;
  const cap = limits.maxWeightPct / 100;
  book.names.forEach((name, index) => {
    const weight = weights[index]!;
    if (name.fixed && over(Math.abs(weight), cap)) {
      found.push({
        constraint: 'max-weight',
        ticker: name.ticker,
        value: pct(weight),
        limit: limits.maxWeightPct,
        message: `${name.ticker} at ${describePct(pct(weight))} is above --max-weight-pct ${limits.maxWeightPct}, and it is not traded (no usable decision)`,
      });
    }
    if (weight < name.low - weightTolerance || weight > name.high + weightTolerance) {
      const cap = weight > name.high ? name.high : name.low;
      const constraint = boundConstraint(book, index, weight);
      found.push({
        constraint,
        ticker: name.ticker,
        value: pct(weight),
        limit: pct(cap),
        message: `${name.ticker} at ${describePct(pct(weight))} is outside its bound ${describePct(pct(cap))} (${constraint})`,
      });
    }
  });
  for (const [sector, gross] of sectorGross(book, weights)) {
    if (over(gross, limits.maxSectorPct / 100)) {
      found.push({
        constraint: 'max-sector',
        sector,
        value: pct(gross),
        limit: limits.maxSectorPct,
        message: `sector ${sector} at ${describePct(pct(gross))} is above --max-sector-pct ${limits.maxSectorPct}`,
      });
    }
  }
  const gross = grossOf(weights);
  const net = netOf(weights);
  if (over(gross, limits.maxGrossPct / 100)) {
    found.push(bookViolation('max-gross', gross, limits.maxGrossPct, `gross exposure`, '--max-gross-pct'));
  }
  if (over(Math.abs(net), limits.maxNetPct / 100)) {
    found.push(bookViolation('max-net', Math.abs(net), limits.maxNetPct, `net exposure`, '--max-net-pct'));
  }
  if (1 - net < limits.minCashPct / 100 - weightTolerance) {
    found.push({
      constraint: 'cash-floor',
      value: pct(1 - net),
      limit: limits.minCashPct,
      message: `cash at ${describePct(pct(1 - net))} is below --min-cash-pct ${limits.minCashPct}`,
    });
  }
  const volatility = volatilityOf(book, weights);
  if (limits.targetVolPct !== null && volatility !== null && over(volatility, limits.targetVolPct / 100)) {
    found.push(
      bookViolation('target-vol', volatility, limits.targetVolPct, 'estimated volatility', '--target-vol-pct'),
    );
  }
  if (options.turnover && limits.maxTurnoverPct !== null) {
    const turnover = turnoverOf(book, weights);
    if (over(turnover, limits.maxTurnoverPct / 100)) {
      found.push(bookViolation('turnover', turnover, limits.maxTurnoverPct, 'turnover', '--max-turnover-pct'));
    }
  }
  return found;
}

function bookViolation(
  constraint: Violation['constraint'],
  value: number,
  limit: number,
  what: string,
  flag: string,
): Violation {
  return {
    constraint,
    value: pct(value),
    limit,
    message: `${what} at ${describePct(pct(value))} is above ${flag} ${limit}`,
  };
}

/** Which limit a name's bound stands for: its own weight cap, its stop, or its decision's direction. */
function boundConstraint(book: BookModel, index: number, weight: number): Violation['constraint'] {
  const name = book.names[index]!;
  const cap = book.limits.maxWeightPct / 100;
  if (Math.abs(weight) > cap + weightTolerance) return 'max-weight';
  if (weight < 0 && !book.limits.allowShort) return 'no-short';
  if (name.stopFraction !== null) return 'risk-per-trade';
  return name.decision?.stopLoss === null ? 'no-stop' : 'max-weight';
}

/** Gross weight per sector, sectors in name order. */
/** Gross exposure: the sum of the weights' sizes, long and short alike (1 = the NAV). */
export function grossOf(weights: readonly number[]): number {
  return weights.reduce((sum, weight) => sum + Math.abs(weight), 0);
}

/** Net exposure: longs minus shorts (1 = the NAV). */
export function netOf(weights: readonly number[]): number {
  return weights.reduce((sum, weight) => sum + weight, 0);
}

export function sectorGross(book: BookModel, weights: readonly number[]): Map<string, number> {
  const totals = new Map<string, number>();
  book.names.forEach((name, index) =>
    totals.set(name.sector, (totals.get(name.sector) ?? 0) + Math.abs(weights[index]!)),
  );
  return totals;
}

export function volatilityOf(book: BookModel, weights: readonly number[]): number | null {
  return book.covariance ? portfolioVolatility(weights, book.covariance) : null;
}

/** One-way turnover: the sum of |target − current| weight. */
export function turnoverOf(book: BookModel, weights: readonly number[]): number {
  return book.names.reduce((sum, name, index) => sum + Math.abs(weights[index]! - name.currentWeight), 0);
}
