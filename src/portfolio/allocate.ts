import { quadraticForm, sessionsPerYear } from './covariance.js';
import { grossOf, netOf, sectorGross } from './constraints.js';
import { type BookModel, describePct, type NameModel, pct } from './model.js';
import type { Clamp, ConstraintName, DecisionInput, PortfolioLimits } from './types.js';

/**
 * The desired weight of each decided name and the greedy allocation of scarce room.
 * Desired: a BUY wants its positionSizePct, a SELL zero (or −size with --allow-short),
 * a HOLD its current weight; each name's own bounds (weight cap, loss at the stop —
 * a HOLD's too) clamp that first. Then, starting from the pinned names alone, the HOLDs
 * are granted their weight, and then the other names in order of conviction (ticker
 * breaks ties), each as far as the sector, gross, net, cash and volatility limits leave
 * room: a HOLD is never traded to make room for a buy. Every cut is logged.
 */

export interface Allocation {
  weights: number[];
  clamps: Clamp[];
  binding: Array<ConstraintName | null>;
}

/** Loss at the stop per unit of weight, from where the order fills (as in the guardrails); null when unusable. */
export function stopFractionOf(decision: DecisionInput, price: number): number | null {
  if (decision.stopLoss === null) return null;
  // A HOLD keeps a long position: its stop lies below the price, like a BUY's.
  const buy = decision.action !== 'SELL';
  const entry = decision.entry;
  const restingLimit = decision.orderType === 'limit' && entry !== null && (buy ? entry <= price : entry >= price);
  const fill = restingLimit ? entry : price;
  const distance = buy ? fill - decision.stopLoss : decision.stopLoss - fill;
  return distance > 0 ? distance / fill : null;
}

/** A decided name's weight bounds: its direction, the weight cap, and the loss at its stop. */
export function boundsOf(
  decision: DecisionInput,
  currentWeight: number,
  stopFraction: number | null,
  limits: PortfolioLimits,
): { low: number; high: number } {
  const cap = limits.maxWeightPct / 100;
  const riskCap = stopFraction === null ? 0 : limits.maxRiskPct / 100 / stopFraction;
  const kept = Math.min(cap, currentWeight);
  if (decision.action === 'BUY') return { low: 0, high: stopFraction === null ? kept : Math.min(cap, riskCap) };
  if (decision.action === 'SELL' && limits.allowShort) return { low: -Math.min(cap, riskCap), high: kept };
  // A HOLD with a usable stop keeps no more than loses --max-risk at that stop.
  if (decision.action === 'HOLD' && stopFraction !== null) return { low: 0, high: Math.min(kept, riskCap) };
  return { low: 0, high: kept };
}

interface Desired {
  weight: number;
  clamps: Clamp[];
}

/** What the decision asks for, then clamped into the name's bounds, each step logged. */
export function desiredWeight(name: NameModel, limits: PortfolioLimits): Desired {
  const decision = name.decision!;
  const asked =
    decision.action === 'BUY'
      ? decision.positionSizePct / 100
      : decision.action === 'SELL'
        ? limits.allowShort
          ? -decision.positionSizePct / 100
          : 0
        : name.currentWeight;
  const clamps: Clamp[] = [];
  let weight = asked;
  const clampTo = (bound: number, constraint: ConstraintName, why: string) => {
    clamps.push({
      ticker: name.ticker,
      constraint,
      before: round4(pct(weight)),
      after: round4(pct(bound)),
      message: why,
    });
    weight = bound;
  };
  const cap = limits.maxWeightPct / 100;
  if (Math.abs(weight) > cap) {
    clampTo(Math.sign(weight) * cap, 'max-weight', `${name.ticker}: cut to --max-weight-pct ${limits.maxWeightPct}`);
  }
  if (weight > name.high) clampTo(name.high, highConstraint(name), highReason(name, limits));
  if (weight < name.low) clampTo(name.low, lowConstraint(name), lowReason(name, limits));
  return { weight, clamps };
}

function highConstraint(name: NameModel): ConstraintName {
  if (name.stopFraction === null) return name.decision!.action === 'HOLD' ? 'max-weight' : 'no-stop';
  return 'risk-per-trade';
}

function highReason(name: NameModel, limits: PortfolioLimits): string {
  if (name.stopFraction === null && name.decision!.action === 'HOLD') {
    return `${name.ticker}: the HOLD keeps at most its --max-weight-pct ${limits.maxWeightPct}`;
  }
  if (name.stopFraction === null) {
    return `${name.ticker}: the BUY has no usable stop-loss, so its loss cannot be bounded: no shares are added`;
  }
  return `${name.ticker}: ${describePct(pct(name.high))} loses ${limits.maxRiskPct} % of NAV at the stop ${name.decision!.stopLoss} (${describePct(pct(name.stopFraction))} away; --max-risk ${limits.maxRiskPct})`;
}

function lowConstraint(name: NameModel): ConstraintName {
  return name.stopFraction === null ? 'no-stop' : 'risk-per-trade';
}

function lowReason(name: NameModel, limits: PortfolioLimits): string {
  if (name.stopFraction === null) {
    return `${name.ticker}: the SELL has no usable stop-loss above the price, so a short's loss cannot be bounded: no short`;
  }
  return `${name.ticker}: a short of ${describePct(pct(-name.low))} loses ${limits.maxRiskPct} % of NAV at the stop ${name.decision!.stopLoss} (--max-risk ${limits.maxRiskPct})`;
}

/** Who gets scarce room first: the HOLDs (they keep what they have), then higher conviction, then the ticker. */
export function grantOrder(book: BookModel): number[] {
  const active = book.names.map((name, index) => ({ name, index })).filter(({ name }) => !name.fixed);
  const holdFirst = (name: NameModel) => (name.decision!.action === 'HOLD' ? 0 : 1);
  active.sort(
    (left, right) =>
      holdFirst(left.name) - holdFirst(right.name) ||
      right.name.decision!.conviction - left.name.decision!.conviction ||
      (left.name.ticker < right.name.ticker ? -1 : left.name.ticker > right.name.ticker ? 1 : 0),
  );
  return active.map(({ index }) => index);
}

export function allocate(book: BookModel): Allocation {
  const weights = book.names.map((name) => (name.fixed ? name.currentWeight : 0));
  const clamps: Clamp[] = [];
  const binding: Array<ConstraintName | null> = book.names.map(() => null);
  for (const index of grantOrder(book)) {
    const name = book.names[index]!;
    const desired = desiredWeight(name, book.limits);
    clamps.push(...desired.clamps);
    if (desired.clamps.length > 0) binding[index] = desired.clamps[desired.clamps.length - 1]!.constraint;
    const sign = Math.sign(desired.weight);
    if (sign === 0) continue;
    const rooms = roomsFor(book, weights, index, sign);
    const wanted = Math.abs(desired.weight);
    const [constraint, room] = rooms.reduce((least, entry) => (entry[1] < least[1] ? entry : least));
    const granted = Math.max(0, Math.min(wanted, room));
    weights[index] = sign * granted;
    if (granted < wanted - 1e-12) {
      binding[index] = constraint;
      clamps.push({
        ticker: name.ticker,
        constraint,
        before: round4(pct(sign * wanted)),
        after: round4(pct(sign * granted)),
        message: `${name.ticker}: ${roomWords(constraint, name, book.limits)} (conviction ${name.decision!.conviction}; higher conviction was served first)`,
      });
    }
  }
  return { weights, clamps, binding };
}

/** How far name `index` may move from zero in direction `sign` under each book-wide limit. */
function roomsFor(book: BookModel, weights: number[], index: number, sign: number): Array<[ConstraintName, number]> {
  const { limits } = book;
  const name = book.names[index]!;
  const gross = grossOf(weights);
  const net = netOf(weights);
  const sectorUsed = sectorGross(book, weights).get(name.sector) ?? 0;
  const rooms: Array<[ConstraintName, number]> = [
    ['max-sector', limits.maxSectorPct / 100 - sectorUsed],
    ['max-gross', limits.maxGrossPct / 100 - gross],
  ];
  if (sign > 0) {
    rooms.push(['max-net', limits.maxNetPct / 100 - net], ['cash-floor', 1 - limits.minCashPct / 100 - net]);
  } else {
    rooms.push(['max-net', limits.maxNetPct / 100 + net]);
  }
  const volatilityRoom = volatilityRoomFor(book, weights, index, sign);
  if (volatilityRoom !== null) rooms.push(['target-vol', volatilityRoom]);
  return rooms;
}

/** The largest t with variance(w + sign·t·e_index) ≤ target², solved exactly (the variance is a parabola in t). */
function volatilityRoomFor(book: BookModel, weights: number[], index: number, sign: number): number | null {
  const target = book.limits.targetVolPct;
  if (target === null || book.covariance === null) return null;
  const matrix = book.covariance;
  const ceiling = (target / 100) ** 2 / sessionsPerYear;
  const c = quadraticForm(weights, matrix);
  const b = sign * weights.reduce((sum, weight, j) => sum + matrix[index]![j]! * weight, 0);
  const a = matrix[index]![index]!;
  if (a <= 0) return b > 0 ? (ceiling - c) / (2 * b) : Infinity;
  const discriminant = b * b - a * (c - ceiling);
  if (discriminant < 0) return 0;
  return (-b + Math.sqrt(discriminant)) / a;
}

function roomWords(constraint: ConstraintName, name: NameModel, limits: PortfolioLimits): string {
  switch (constraint) {
    case 'max-sector':
      return `sector ${name.sector} is full at --max-sector-pct ${limits.maxSectorPct}`;
    case 'max-gross':
      return `gross exposure is full at --max-gross-pct ${limits.maxGrossPct}`;
    case 'max-net':
      return `net exposure is full at --max-net-pct ${limits.maxNetPct}`;
    case 'cash-floor':
      return `no more cash to spend above the --min-cash-pct ${limits.minCashPct} floor`;
    case 'target-vol':
      return `the book's estimated volatility reaches --target-vol-pct ${String(limits.targetVolPct)}`;
    default:
      return constraint;
  }
}

export function round4(value: number): number {
  const rounded = Math.round(value * 1e4) / 1e4;
  return rounded === 0 ? 0 : rounded;
}
