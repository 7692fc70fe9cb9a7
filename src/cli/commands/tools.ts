import { agentDefinitions } from '../../../agents/index.js';
import { sanitizeText } from '../../sanitize.js';
import { createExaProvider, createExaSearchTool } from '../../tools/exa-search.js';
import type { Tool } from '../../tools/types.js';
import type { McpTool } from '../../mcp/index.js';
import type { CliIo } from '../io.js';
import { withMcpTools } from '../mcp-listing.js';

interface Listed {
  tool: Tool;
  agents: string[];
  mcp?: McpTool;
}

/**
 * `autohedge tools`: every function definition an agent would send, each tool's
 * describe() line, or with --json the exact definitions; MCP tools (--mcp-config)
 * included, with their agents and whether strict mode could express their schema.
 */
export async function toolsCommand(options: { json?: boolean; mcpConfig?: string }, io: CliIo): Promise<number> {
  // Listing needs no key: building the tool imports nothing; only a search would.
  const exa = createExaSearchTool(createExaProvider({ apiKey: undefined }));
  const listed: Listed[] = [{ tool: exa, agents: agentDefinitions.filter((definition) => (definition.tools as readonly string[]).includes(exa.name)).map((definition) => definition.id) }];
  await withMcpTools(options.mcpConfig, io, (bound) => {
    for (const [agent, tools] of Object.entries(bound)) {
      for (const tool of tools ?? []) {
        const entry = listed.find((candidate) => candidate.tool === tool);
        if (entry) entry.agents.push(agent);
        else listed.push({ tool, agents: [agent], mcp: tool });
      }
    }
  });
  if (options.json) {
    const listing = listed.map(({ tool, agents, mcp }) => ({
      name: tool.name,
      agents,
      strict: tool.definition.function.strict,
      ...(mcp ? { server: mcp.server, serverTool: mcp.remoteName, nonStrictReason: mcp.nonStrictReason } : {}),
      description: tool.description,
      summary: tool.describe(),
      definition: tool.definition,
    }));
    io.stdout(`${JSON.stringify(listing, null, 2)}\n`);
  } else {
    const lines = listed.map(({ tool, agents, mcp }) => {
      const notes = [`agents: ${agents.join(', ') || 'none'}`];
      if (mcp && !tool.definition.function.strict) notes.push(`non-strict: ${mcp.nonStrictReason ?? 'schema not expressible in strict mode'}`);
      return sanitizeText(`${tool.describe()} [${notes.join('; ')}]`);
    });
    io.stdout(`${lines.join('\n')}\n`);
  }
  return 0;
}
