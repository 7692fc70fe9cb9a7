import { UsageError } from '../errors.js';

/**
 * What a historical run (`--as-of`) may not use, or must flag. The CLI calls these
 * where it knows the search provider and the extra tools bound to the agents.
 */

/** Search providers that can hold their results to a window ending at the as-of day. */
const datedSearchProviders = new Set(['exa', 'none']);

/** `--search openai` has no date filter: a historical run with it would read the future. */
export function checkHistoricalSearch(provider: string, asOfDay: string): void {
  if (datedSearchProviders.has(provider)) return;
  throw new UsageError(
    `--search ${provider} cannot be used with --as-of ${asOfDay}: it has no date filter, so its results could come from after that day; use --search exa or --search none`,
  );
}

/**
 * Tools from outside (MCP servers) answer from today's world: a historical run may use
 * them, but the run and its reader are told, naming the tools.
 */
export function historicalToolsWarning(toolNames: readonly string[], asOfDay: string): string | null {
  if (toolNames.length === 0) return null;
  const names = [...new Set(toolNames)].sort();
  return `as of ${asOfDay}, but the tool(s) ${names.join(', ')} from outside autohedge (MCP servers, a caller's own) are not point-in-time: what they return may come from after that day`;
}
