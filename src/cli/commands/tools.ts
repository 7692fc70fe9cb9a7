import { createExaProvider } from '../../search/exa.js';
import { createExaSearchTool } from '../../tools/exa-search.js';
import type { CliIo } from '../io.js';

/** `autohedge tools`: each tool's describe() line, or with --json the exact definitions sent to the model. */
export async function toolsCommand(options: { json?: boolean }, io: CliIo): Promise<number> {
  // Listing needs no key: building the tool imports nothing; only a search would.
  const tools = [createExaSearchTool(createExaProvider({ apiKey: undefined }))];
  if (options.json) {
    const listing = tools.map((tool) => ({ name: tool.name, description: tool.description, summary: tool.describe(), definition: tool.definition }));
    io.stdout(`${JSON.stringify(listing, null, 2)}\n`);
  } else {
    io.stdout(`${tools.map((tool) => tool.describe()).join('\n')}\n`);
  }
  return 0;
}
