import type { ToolRunContext } from './catalogue.js';

/**
 * Tools from outside autohedge (MCP servers, a library caller's own) follow one rule, as
 * the built-in catalogue's entries do: off in a blind run, whose identity their calls and
 * results could leak; on in a historical run, with a warning, because they answer from
 * today's world.
 */
export const outsideTools = {
  isEnabled: ({ context }: { context: ToolRunContext }): boolean => !context.blind,
  offWarning: (names: readonly string[]): string =>
    `blind run: the MCP tools (${names.join(', ')}) are off — their calls and results could name the company or the day`,
  /** A historical run may use them, but the run and its reader are told, naming the tools. */
  historicalWarning(names: readonly string[], asOfDay: string): string | null {
    if (names.length === 0) return null;
    const sorted = [...new Set(names)].sort();
    return `as of ${asOfDay}, but the tool(s) ${sorted.join(', ')} from outside autohedge (MCP servers, a caller's own) are not point-in-time: what they return may come from after that day`;
  },
};
