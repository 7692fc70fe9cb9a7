/**
 * What a historical run (`--as-of`) must flag. (A search with no date filter is refused
 * by checkSearchForHistoricalRun in src/search/choice.ts.)
 */

/**
 * Tools from outside (MCP servers) answer from today's world: a historical run may use
 * them, but the run and its reader are told, naming the tools.
 */
export function historicalToolsWarning(toolNames: readonly string[], asOfDay: string): string | null {
  if (toolNames.length === 0) return null;
  const names = [...new Set(toolNames)].sort();
  return `as of ${asOfDay}, but the tool(s) ${names.join(', ')} from outside autohedge (MCP servers, a caller's own) are not point-in-time: what they return may come from after that day`;
}
