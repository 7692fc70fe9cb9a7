/** The cap of each analysis `watch` starts: its worst case against --budget-usd (a run is ~$0.03). */
export const defaultRunMaxCostUsd = 0.25;
