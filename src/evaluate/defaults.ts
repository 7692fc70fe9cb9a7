/** `autohedge evaluate`'s defaults, with no imports, so `--help` shows them without loading anything. */

/** Horizons scored, in trading sessions: a week, a month, a quarter. */
export const defaultHorizons: readonly number[] = [5, 21, 63];
/** The longest horizon accepted: three years of sessions. */
export const longestHorizon = 756;
export const defaultBenchmark = 'SPY';
/** The random baseline's seed. */
export const defaultSeed = 1;
/** Trading costs charged on entry and on exit, basis points: a liquid US large cap. */
export const defaultSpreadBps = 5;
export const defaultSlippageBps = 5;
/** Bootstrap resamples for the alpha interval. */
export const defaultResamples = 2000;
