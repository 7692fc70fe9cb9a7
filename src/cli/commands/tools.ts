import { sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import { createExaProvider } from '../../search/exa.js';
import { resolveSearchChoice } from '../../search/choice.js';
import { defaultOpenAISearchModel } from '../../search/openai.js';
import type { SearchChoice } from '../../search/types.js';
import { builtInTools, defaultDesks, type BuiltInTool } from '../../tools/catalogue.js';
import { searchToolName } from '../../tools/exa-search.js';
import { renderTable } from '../../report/table.js';
import type { Tool } from '../../tools/types.js';
import type { CliIo } from '../io.js';
import { withMcpTools } from '../mcp-listing.js';
import { catalogueEntry, catalogueText } from './tools-catalogue.js';

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
  builtIn?: BuiltInTool;
}

/**
 * `autohedge tools`: every function definition an agent would send — a table (name,
 * agents, parameters, one line of description), or with --json the exact
 * definitions — with which search provider backs exa_search (`--search`,
 * AUTOHEDGE_SEARCH) and the MCP tools of --mcp-config (where strict mode could not
 * express a schema, why); then the built-in catalogue: the desks that bind each tool
 * by default, what it needs and costs, and when a run switches it off.
 */
export async function toolsCommand(
  options: { json?: boolean; search?: string; mcpConfig?: string },
  io: CliIo,
): Promise<number> {
  const backing = searchBacking(resolveSearchChoice(options.search, io.env), io.env);
  // Listing needs no key: building a tool imports nothing; only a search would.
  const services = { search: createExaProvider({ apiKey: undefined }), historical: false };
  const listed: Listed[] = builtInTools.map((builtIn) => ({
    tool: builtIn.create(services),
    agents: defaultDesks(builtIn.name),
    builtIn,
  }));
  await withMcpTools(options.mcpConfig, io, (bound) => {
    for (const [agent, tools] of Object.entries(bound)) {
      for (const tool of tools ?? []) {
        const entry = listed.find((candidate) => candidate.tool === tool);
        if (entry) entry.agents.push(agent);
        else listed.push({ tool, agents: [agent] });
      }
    }
  });
  if (options.json) {
    const listing = listed.map(({ tool, agents, builtIn }) => ({
      ...listingEntry(tool, agents),
      ...(tool.name === searchToolName ? { provider: backing.provider, model: backing.model } : {}),
      ...(builtIn ? { builtIn: catalogueEntry(builtIn) } : {}),
    }));
    io.stdout(`${stringifyJsonSafely(listing, 2)}\n`);
  } else {
    const rows = listed.map(({ tool, agents }) => tableRow(tool, agents));
    io.stdout(renderTable(['NAME', 'AGENTS', 'PARAMETERS', 'DESCRIPTION'], rows, io.stdoutIsTTY ? io.columns : 0));
    for (const { tool } of listed) {
      if (tool.name === searchToolName) io.stdout(`  ${tool.name}: ${backing.line}\n`);
      if (!tool.definition.function.strict)
        io.stdout(
          sanitizeText(
            `  ${tool.name}: sent non-strict: ${tool.nonStrictReason ?? 'its schema is not expressible in strict mode'}\n`,
          ),
        );
    }
    io.stdout(catalogueText(listed.some(({ tool }) => tool.origin.kind === 'mcp')));
  }
  return 0;
}

/** One tool in `tools --json`, from the Tool contract alone: a zod tool and an MCP tool list alike. */
export function listingEntry(tool: Tool, agents: string[]) {
  return {
    name: tool.name,
    agents,
    strict: tool.definition.function.strict,
    ...(tool.origin.kind === 'mcp'
      ? {
          server: tool.origin.server,
          serverTool: tool.origin.remoteName,
          nonStrictReason: tool.nonStrictReason ?? null,
        }
      : {}),
    description: tool.description,
    summary: tool.describe(),
    definition: tool.definition,
  };
}

/** One row of the `tools` table: name, agents, parameters, the description's first sentence. */
export function tableRow(tool: Tool, agents: string[]): string[] {
  return [tool.name, agents.join(', ') || '-', parameterList(tool), sanitizeText(firstSentence(tool.description))];
}

/**
 * "query, numResults?, daysBack?": the parameters the model may send, read from the
 * definition alone, whoever built the tool. Optional ones are marked: in a strict
 * definition every property is required and an optional one is nullable; in a
 * non-strict one, those not required.
 */
export function parameterList(tool: Pick<Tool, 'definition'>): string {
  const parameters = tool.definition.function.parameters as Record<string, unknown>;
  const properties = (parameters.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(parameters.required) ? (parameters.required as string[]) : []);
  const names = Object.entries(properties).map(([name, schema]) =>
    required.has(name) && !nullable(schema) ? name : `${name}?`,
  );
  return names.length > 0 ? names.join(', ') : '-';
}

function nullable(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const node = schema as Record<string, unknown>;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  return Array.isArray(node.anyOf) && node.anyOf.some(nullable);
}

function firstSentence(text: string): string {
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return (sentence ? sentence[1]! : text).replace(/\s+/g, ' ');
}
