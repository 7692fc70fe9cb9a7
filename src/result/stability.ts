/** The result contract of `--samples k`: how much the Director's decision moved when asked again (src/pipeline/stability.ts computes it). */

export type Action = 'BUY' | 'SELL' | 'HOLD';

export interface LevelSpread {
  positionSizePct: number | null;
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
}

export interface Stability {
  /** Samples the figures are computed over: those made (all asked for, unless the --max-cost cap stopped the rest). */
  k: number;
  /** Samples asked for, when the cap made fewer than that (absent when every sample asked for ran). */
  asked?: number;
  /** The modal action's share of the k samples (a sample with no decision agrees with nothing). */
  agreement: number;
  /** Decisions per action. */
  actions: Record<Action, number>;
  /** max − min of each level over the modal action's samples (null where none of them set it). */
  spread: LevelSpread;
  /** Samples that produced no decision (the cap, the server). */
  failed: number;
}
