import type { AnalysisResult } from '../pipeline/types.js';

/** `--json` and result.json: one object for one ticker, an array for several; 2-space, trailing newline. */
export function renderJson(results: AnalysisResult | AnalysisResult[]): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}
