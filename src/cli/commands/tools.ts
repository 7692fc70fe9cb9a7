import { createExaProvider, createExaSearchTool } from '../../tools/exa-search.js';
import { agentDefinitions } from '../../../agents/index.js';
import { renderTable } from '../../report/table.js';
import type { Tool } from '../../tools/types.js';
import type { CliIo } from '../io.js';

/** `autohedge tools`: a table (name, agents, parameters, one line of description), or with --json the exact definitions sent to the model. */
export async function toolsCommand(options: { json?: boolean }, io: CliIo): Promise<number> {
  // Listing needs no key: building the tool imports nothing; only a search would.
  const tools = [createExaSearchTool(createExaProvider({ apiKey: undefined }))];
  if (options.json) {
    const listing = tools.map((tool) => ({ name: tool.name, description: tool.description, summary: tool.describe(), definition: tool.definition }));
    io.stdout(`${JSON.stringify(listing, null, 2)}\n`);
  } else {
    const rows = tools.map((tool) => [tool.name, agentsUsing(tool.name), parameterList(tool), firstSentence(tool.description)]);
    io.stdout(renderTable(['NAME', 'AGENTS', 'PARAMETERS', 'DESCRIPTION'], rows, io.stdoutIsTTY ? io.columns : 0));
  }
  return 0;
}

/** The agents whose definitions name the tool. */
function agentsUsing(name: string): string {
  const ids = agentDefinitions.filter((definition) => (definition.tools as readonly string[]).includes(name)).map((definition) => definition.id);
  return ids.length > 0 ? ids.join(', ') : '-';
}

/** "query, numResults?, daysBack?": the parameters the model may send, optional ones marked. */
function parameterList(tool: Tool): string {
  const shape = tool.parameters.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
  const names = Object.entries(shape).map(([name, schema]) => (schema.safeParse(undefined).success || schema.safeParse(null).success ? `${name}?` : name));
  return names.length > 0 ? names.join(', ') : '-';
}

function firstSentence(text: string): string {
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return (sentence ? sentence[1]! : text).replace(/\s+/g, ' ');
}
