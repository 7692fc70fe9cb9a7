import { agentDefinitions } from '../../../agents/index.js';
import { resolveModel } from '../../pipeline/models.js';
import { loadEnvFile } from '../env-file.js';
import type { CliIo } from '../io.js';
import { boundToolNames, withMcpTools } from '../mcp-listing.js';

/** `autohedge agents`: the five agents with the models they would use here. */
export async function agentsCommand(options: { json?: boolean; model?: string; mcpConfig?: string }, io: CliIo): Promise<number> {
  const env = loadEnvFile(io.cwd, io.env);
  const bound = await withMcpTools(options.mcpConfig, io, boundToolNames);
  const agents = agentDefinitions.map((definition) => ({
    id: definition.id,
    name: definition.name,
    description: definition.description,
    model: resolveModel(definition, options.model, env),
    tools: bound.get(definition.id) ?? [...definition.tools],
  }));
  if (options.json) {
    io.stdout(`${JSON.stringify(agents, null, 2)}\n`);
    return 0;
  }
  const idWidth = Math.max(...agents.map((agent) => agent.id.length));
  const modelWidth = Math.max(...agents.map((agent) => agent.model.length));
  for (const agent of agents) {
    const tools = agent.tools.length > 0 ? `  tools: ${agent.tools.join(', ')}` : '';
    io.stdout(`${agent.id.padEnd(idWidth)}  ${agent.model.padEnd(modelWidth)}  ${agent.description}${tools}\n`);
  }
  return 0;
}
