import { renderTable } from '../../report/table.js';
import {
  builtInTools,
  defaultDesks,
  namedContexts,
  offLine,
  toolState,
  type BuiltInTool,
  type ToolOff,
} from '../../tools/catalogue.js';
import { outsideTools } from '../../tools/outside-tools.js';

type ContextName = keyof typeof namedContexts;
const contextNames = Object.keys(namedContexts) as ContextName[];
const contextHeaders: Record<ContextName, string> = {
  live: 'LIVE',
  blind: '--BLIND',
  searchNone: '--SEARCH NONE',
  historical: '--AS-OF',
};

/**
 * The built-in catalogue as `autohedge tools` shows it. Whether a tool is on in each
 * context is asked of its own isEnabled, so the listing cannot drift from the runs.
 */
export function catalogueEntry(tool: BuiltInTool) {
  const states = contextNames.map((name) => [name, toolState(tool, namedContexts[name])] as const);
  const off: Array<{ when: ContextName } & Pick<ToolOff, 'reason' | 'warning'>> = [];
  for (const [when, state] of states)
    if (!state.enabled) off.push({ when, reason: state.reason, warning: state.warning });
  return {
    desks: defaultDesks(tool.name),
    needs: tool.needs,
    cost: tool.cost,
    enabled: Object.fromEntries(states.map(([name, state]) => [name, state.enabled])) as Record<ContextName, boolean>,
    off,
    historical: tool.historical,
  };
}

/** The catalogue's table (name, desks, on/off per context) and, per tool, what it needs, costs, and why it is off. */
export function catalogueText(withOutsideTools: boolean): string {
  const headers = ['BUILT-IN', 'DESKS', ...contextNames.map((name) => contextHeaders[name])];
  const onOff = (enabled: boolean) => (enabled ? 'on' : 'off');
  const rows = builtInTools.map((tool) => {
    const entry = catalogueEntry(tool);
    return [tool.name, entry.desks.join(', ') || '-', ...contextNames.map((name) => onOff(entry.enabled[name]))];
  });
  if (withOutsideTools) {
    const outside = contextNames.map((name) => onOff(outsideTools.isEnabled({ context: namedContexts[name] })));
    rows.push(['MCP tools', 'per --mcp-config', ...outside]);
  }
  const lines = builtInTools.flatMap((tool) => {
    const entry = catalogueEntry(tool);
    return [
      `${tool.name} needs ${tool.needs}`,
      `${tool.name} costs ${tool.cost}`,
      ...entry.off.map((off) => offLine(tool.name, off)),
      `${tool.name} in a historical run: ${tool.historical}`,
    ];
  });
  if (withOutsideTools) lines.push('MCP tools in a historical run: on, with a warning (they are not point-in-time)');
  return `\n${renderTable(headers, rows)}${lines.map((line) => `  ${line}\n`).join('')}`;
}
