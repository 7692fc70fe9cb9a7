/**
 * What a decision would have done over the sessions after it, from daily bars only.
 *
 * - Entry: the first session after the decision, at its open (the as-of close is a
 *   lookahead: the decision was made after it). A limit order works from that open to
 *   the horizon: it fills at the open if the open is already through the limit, else at
 *   the limit on the first session whose low (BUY) or high (SELL) reaches it; never → `unfilled`.
 * - Exit: the stop or the target when a session's low/high touches it — at the open when
 *   the session gaps through it — else the close of the horizon's last session. A session
 *   that touches both (and opens between them) is `ambiguous`: daily bars cannot say which
 *   came first. After an intraday limit fill, exits are checked from the next session,
 *   because that day's high and low may precede the fill.
 * - A horizon whose last session has no bar yet is `pending`, unless a level was touched
 *   before the data ends (that outcome is final).
 * - HOLD is an abstention: the outcome is what the stock did from the same open to the
 *   horizon's close.
 */

export type Action = 'BUY' | 'SELL' | 'HOLD';

export interface TradePlan {
  action: Action;
  orderType: 'market' | 'limit';
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
}

/** A session with every price present. */
export interface PricedSession {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
}

export type OutcomeKind = 'target' | 'stop' | 'horizon' | 'ambiguous' | 'pending' | 'unfilled' | 'abstained';

export interface TradeOutcome {
  outcome: OutcomeKind;
  entryDate: string | null;
  entryPrice: number | null;
  exitDate: string | null;
  exitPrice: number | null;
  /** exit ÷ entry − 1: what the stock did while the position was held. */
  stockReturn: number | null;
  /** The position's return: BUY +stockReturn, SELL −stockReturn; null for HOLD and unresolved outcomes. */
  signedReturn: number | null;
}

const unresolved = (outcome: OutcomeKind, entry: { date: string; price: number } | null = null): TradeOutcome => ({
  outcome,
  entryDate: entry?.date ?? null,
  entryPrice: entry?.price ?? null,
  exitDate: null,
  exitPrice: null,
  stockReturn: null,
  signedReturn: null,
});

interface Fill {
  index: number;
  price: number;
  /** First session whose high and low may trigger an exit. */
  checkFrom: number;
}

/** Where a position opens, or null if a limit never fills by `lastIndex`. */
function fillOf(
  plan: TradePlan,
  sessions: readonly PricedSession[],
  entryIndex: number,
  lastIndex: number,
): Fill | null {
  const first = sessions[entryIndex]!;
  if (plan.orderType !== 'limit' || plan.entry === null || plan.action === 'HOLD')
    return { index: entryIndex, price: first.open, checkFrom: entryIndex };
  const limit = plan.entry;
  const buying = plan.action === 'BUY';
  for (let index = entryIndex; index <= lastIndex; index += 1) {
    const session = sessions[index]!;
    if (buying ? session.open <= limit : session.open >= limit) return { index, price: session.open, checkFrom: index };
    if (buying ? session.low <= limit : session.high >= limit) return { index, price: limit, checkFrom: index + 1 };
  }
  return null;
}

type Exit = { kind: 'stop' | 'target'; index: number; price: number } | { kind: 'ambiguous'; index: number };

/** The first session that touches the stop or the target, and at what price it exits. */
function levelExit(plan: TradePlan, sessions: readonly PricedSession[], from: number, to: number): Exit | null {
  const buying = plan.action === 'BUY';
  const { stopLoss: stop, takeProfit: target } = plan;
  for (let index = from; index <= to; index += 1) {
    const { open, high, low } = sessions[index]!;
    const stopHit = stop !== null && (buying ? low <= stop : high >= stop);
    const targetHit = target !== null && (buying ? high >= target : low <= target);
    const gappedStop = stop !== null && (buying ? open <= stop : open >= stop);
    const gappedTarget = target !== null && (buying ? open >= target : open <= target);
    if (gappedStop) return { kind: 'stop', index, price: open };
    if (gappedTarget) return { kind: 'target', index, price: open };
    if (stopHit && targetHit) return { kind: 'ambiguous', index };
    if (stopHit) return { kind: 'stop', index, price: stop };
    if (targetHit) return { kind: 'target', index, price: target };
  }
  return null;
}

function resolved(
  outcome: OutcomeKind,
  action: Action,
  entry: { date: string; price: number },
  exit: { date: string; price: number },
): TradeOutcome {
  const stockReturn = exit.price / entry.price - 1;
  const signedReturn = action === 'BUY' ? stockReturn : action === 'SELL' ? -stockReturn : null;
  return {
    outcome,
    entryDate: entry.date,
    entryPrice: entry.price,
    exitDate: exit.date,
    exitPrice: exit.price,
    stockReturn,
    signedReturn,
  };
}

/**
 * One decision over one horizon. `entryIndex` is the first session after the decision
 * (its index in `sessions`, which may be `sessions.length` when it has not happened);
 * the horizon's last session is `entryIndex + horizon − 1`.
 */
export function simulateTrade(
  plan: TradePlan,
  sessions: readonly PricedSession[],
  entryIndex: number,
  horizon: number,
): TradeOutcome {
  if (entryIndex >= sessions.length) return unresolved('pending');
  const exitIndex = entryIndex + horizon - 1;
  const lastIndex = Math.min(exitIndex, sessions.length - 1);
  const elapsed = exitIndex < sessions.length;

  const fill = fillOf(plan, sessions, entryIndex, lastIndex);
  if (fill === null) return unresolved(elapsed ? 'unfilled' : 'pending');
  const entry = { date: sessions[fill.index]!.date, price: fill.price };
  if (plan.action === 'HOLD') {
    return elapsed
      ? resolved('abstained', 'HOLD', entry, { date: sessions[exitIndex]!.date, price: sessions[exitIndex]!.close })
      : unresolved('pending', entry);
  }

  const exit = levelExit(plan, sessions, fill.checkFrom, lastIndex);
  if (exit?.kind === 'ambiguous') return { ...unresolved('ambiguous', entry), exitDate: sessions[exit.index]!.date };
  if (exit) return resolved(exit.kind, plan.action, entry, { date: sessions[exit.index]!.date, price: exit.price });
  if (!elapsed) return unresolved('pending', entry);
  return resolved('horizon', plan.action, entry, {
    date: sessions[exitIndex]!.date,
    price: sessions[exitIndex]!.close,
  });
}
