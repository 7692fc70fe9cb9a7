/**
 * The limits a decision is checked against. Every limit is inclusive: a value exactly
 * at a limit passes. Distances are in ATR(14) of the daily bars; where ATR is not
 * available, `fallbackAtrPct` of the price stands in for one ATR (and findings say so).
 */
export interface GuardrailLimits {
  /** Largest position size, percent of the portfolio. */
  maxPositionPct: number;
  /** Largest share of the portfolio one trade may lose at its stop: size × stop distance ÷ entry, percent. */
  maxRiskPct: number;
  /** How many ATR the entry may sit from the last price. */
  maxEntryAtr: number;
  /** Closest a stop may sit to the entry, in ATR: closer is stopped out by ordinary noise. */
  minStopAtr: number;
  /** Farthest a stop may sit from the entry, in ATR. */
  maxStopAtr: number;
  /** Lowest reward/risk (target distance ÷ stop distance, at the price the order fills). */
  minRewardRisk: number;
  /** A target may sit this many ATR × √(sessions in the horizon) from the entry: how far prices really move. */
  maxTargetAtrPerSqrtSession: number;
  /** How far, in percent, a target may reach beyond the 52-week high (BUY) or low (SELL). */
  maxBeyond52WeekPct: number;
  /** How far, in percent, a stop may sit beyond the 52-week low (BUY) or high (SELL): past it, the stop guards nothing the year has seen. */
  maxStopBeyond52WeekPct: number;
  /** Conviction needed at the maximum position size; a smaller size needs proportionally less. */
  minConvictionAtMaxSize: number;
  /** Percent of the price taken as one ATR when ATR(14) is not available. */
  fallbackAtrPct: number;
}

export const defaultLimits: GuardrailLimits = {
  maxPositionPct: 10,
  maxRiskPct: 2,
  maxEntryAtr: 3,
  minStopAtr: 0.25,
  maxStopAtr: 6,
  minRewardRisk: 1,
  maxTargetAtrPerSqrtSession: 3,
  maxBeyond52WeekPct: 25,
  maxStopBeyond52WeekPct: 10,
  minConvictionAtMaxSize: 50,
  fallbackAtrPct: 2.5,
};
