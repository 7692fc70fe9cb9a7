import type { AnalysisResult } from '../result/types.js';
import { stringifyJsonSafely } from '../sanitize.js';

/** `--json` and result.json: one object for one ticker, an array for several; 2-space, trailing newline. */
export function renderJson(results: AnalysisResult | AnalysisResult[]): string {
  // Exact data, but no raw control character a terminal could act on (`--json` on a tty).
  return `${stringifyJsonSafely(results, 2)}\n`;
}
