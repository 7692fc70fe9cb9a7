import { createExaProvider } from '../../search/exa.js';
import { resolveSearchChoice } from '../../search/choice.js';
import { defaultOpenAISearchModel } from '../../search/openai.js';
import type { SearchChoice } from '../../search/types.js';
import { createExaSearchTool, searchToolName } from '../../tools/exa-search.js';
import { agentDefinitions } from '../../../agents/index.js';
import { renderTable } from '../../report/table.js';
import type { Tool } from '../../tools/types.js';
import type { CliIo } from '../io.js';

/** Which provider backs the search tool under this choice, in words and as data. */
function searchBacking(choice: SearchChoice, env: NodeJS.ProcessEnv): { provider: SearchChoice; model: string | null; line: string } {
  if (choice === 'openai') {
    const model = env['AUTOHEDGE_SEARCH_MODEL']?.trim() || defaultOpenAISearchModel;
    return { provider: 'openai', model, line: `backed by OpenAI's built-in web search (model ${model}, OPENAI_API_KEY)` };
  }
  if (choice === 'none') return { provider: 'none', model: null, line: 'not bound: --search none, Sentiment runs without a search tool' };
  return { provider: 'exa', model: null, line: 'backed by Exa (EXA_API_KEY)' };
}

/**
 * `autohedge tools`: a table (name, agents, parameters, one line of description) and
 * which search provider backs exa_search (`--search`, AUTOHEDGE_SEARCH), or with --json
 * the exact definitions sent to the model. The definition is the same whichever provider is behind it.
 */
export async function toolsCommand(options: { json?: boolean; search?: string }, io: CliIo): Promise<number> {
  const backing = searchBacking(resolveSearchChoice(options.search, io.env), io.env);
  // Listing needs no key: building the tool imports nothing; only a search would.
  const tools = [createExaSearchTool(createExaProvider({ apiKey: undefined }))];
  if (options.json) {
    const listing = tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      summary: tool.describe(),
      definition: tool.definition,
      ...(tool.name === searchToolName ? { provider: backing.provider, model: backing.model } : {}),
    }));
    io.stdout(`${JSON.stringify(listing, null, 2)}\n`);
  } else {
    const rows = tools.map((tool) => [tool.name, agentsUsing(tool.name), parameterList(tool), firstSentence(tool.description)]);
    io.stdout(renderTable(['NAME', 'AGENTS', 'PARAMETERS', 'DESCRIPTION'], rows, io.stdoutIsTTY ? io.columns : 0));
    for (const tool of tools) if (tool.name === searchToolName) io.stdout(`  ${tool.name}: ${backing.line}\n`);
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
