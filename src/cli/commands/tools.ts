import { agentDefinitions } from '../../../agents/index.js';
import { sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import { createExaProvider } from '../../search/exa.js';
import { resolveSearchChoice } from '../../search/choice.js';
import { defaultOpenAISearchModel } from '../../search/openai.js';
import type { SearchChoice } from '../../search/types.js';
import { createExaSearchTool, searchToolName } from '../../tools/exa-search.js';
import { renderTable } from '../../report/table.js';
import type { Tool } from '../../tools/types.js';
import type { McpTool } from '../../mcp/index.js';
import type { CliIo } from '../io.js';
import { withMcpTools } from '../mcp-listing.js';

/** Which provider backs the search tool under this choice, in words and as data. */
function searchBacking(
  choice: SearchChoice,
  env: NodeJS.ProcessEnv,
): { provider: SearchChoice; model: string | null; line: string } {
  if (choice === 'openai') {
    const model = env['AUTOHEDGE_SEARCH_MODEL']?.trim() || defaultOpenAISearchModel;
    return {
      provider: 'openai',
      model,
      line: `backed by OpenAI's built-in web search (model ${model}, OPENAI_API_KEY)`,
    };
  }
  if (choice === 'none')
    return { provider: 'none', model: null, line: 'not bound: --search none, Sentiment runs without a search tool' };
  return { provider: 'exa', model: null, line: 'backed by Exa (EXA_API_KEY)' };
}

interface Listed {
  tool: Tool;
  agents: string[];
  mcp?: McpTool;
}

/**
 * `autohedge tools`: every function definition an agent would send — a table (name,
 * agents, parameters, one line of description), or with --json the exact
 * definitions — with which search provider backs exa_search (`--search`,
 * AUTOHEDGE_SEARCH) and the MCP tools of --mcp-config (where strict mode could not
 * express a schema, why).
 */
export async function toolsCommand(
  options: { json?: boolean; search?: string; mcpConfig?: string },
  io: CliIo,
): Promise<number> {
  const backing = searchBacking(resolveSearchChoice(options.search, io.env), io.env);
  // Listing needs no key: building the tool imports nothing; only a search would.
  const search = createExaSearchTool(createExaProvider({ apiKey: undefined }));
  const namedBy = (name: string) =>
    agentDefinitions
      .filter((definition) => (definition.tools as readonly string[]).includes(name))
      .map((definition) => definition.id);
  const listed: Listed[] = [{ tool: search, agents: namedBy(search.name) }];
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
      ...(tool.name === searchToolName ? { provider: backing.provider, model: backing.model } : {}),
    }));
    io.stdout(`${stringifyJsonSafely(listing, 2)}\n`);
  } else {
    const rows = listed.map(({ tool, agents, mcp }) => [
      tool.name,
      agents.join(', ') || '-',
      mcp ? mcpParameterList(mcp) : parameterList(tool),
      sanitizeText(firstSentence(tool.description)),
    ]);
    io.stdout(renderTable(['NAME', 'AGENTS', 'PARAMETERS', 'DESCRIPTION'], rows, io.stdoutIsTTY ? io.columns : 0));
    for (const { tool, mcp } of listed) {
      if (tool.name === searchToolName) io.stdout(`  ${tool.name}: ${backing.line}\n`);
      if (mcp && !tool.definition.function.strict)
        io.stdout(
          sanitizeText(
            `  ${tool.name}: sent non-strict: ${mcp.nonStrictReason ?? 'its schema is not expressible in strict mode'}\n`,
          ),
        );
    }
  }
  return 0;
}

/** An MCP tool's parameters from the server's own schema, optional ones marked. */
function mcpParameterList(tool: McpTool): string {
  const properties = Object.keys((tool.inputSchema.properties as object | undefined) ?? {});
  const required = new Set(Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : []);
  return properties.length > 0 ? properties.map((name) => (required.has(name) ? name : `${name}?`)).join(', ') : '-';
}

/** "query, numResults?, daysBack?": the parameters the model may send, optional ones marked. */
function parameterList(tool: Tool): string {
  const shape = tool.parameters.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
  const names = Object.entries(shape).map(([name, schema]) =>
    schema.safeParse(undefined).success || schema.safeParse(null).success ? `${name}?` : name,
  );
  return names.length > 0 ? names.join(', ') : '-';
}

function firstSentence(text: string): string {
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return (sentence ? sentence[1]! : text).replace(/\s+/g, ' ');
}
