import { createExaProvider } from '../../search/exa.js';
import { resolveSearchChoice } from '../../search/choice.js';
import { defaultOpenAISearchModel } from '../../search/openai.js';
import type { SearchChoice } from '../../search/types.js';
import { createExaSearchTool, searchToolName } from '../../tools/exa-search.js';
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
 * `autohedge tools`: each tool's describe() line and which search provider backs
 * exa_search (`--search`, AUTOHEDGE_SEARCH), or with --json the exact definitions sent
 * to the model. The definition is the same whichever provider is behind it.
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
    io.stdout(`${tools.map((tool) => (tool.name === searchToolName ? `${tool.describe()}\n  ${tool.name}: ${backing.line}` : tool.describe())).join('\n')}\n`);
  }
  return 0;
}
