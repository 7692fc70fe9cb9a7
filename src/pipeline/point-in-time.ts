import { outsideTools } from '../tools/outside-tools.js';

/**
 * What a historical run (`--as-of`) must flag. (A search with no date filter is refused
 * by checkSearchForHistoricalRun in src/search/choice.ts.)
 */

/**
 * Tools from outside (MCP servers) answer from today's world: a historical run may use
 * them, but the run and its reader are told, naming the tools. The rule is the tools'
 * own (src/tools/outside-tools.ts).
 */
export const historicalToolsWarning = outsideTools.historicalWarning;
