import { agentDefinitions } from '../../../agents/index.js';
import { resolveModel } from '../../pipeline/models.js';
import { loadEnvFile } from '../env-file.js';
import type { CliIo } from '../io.js';
import { boundToolNames, withMcpTools } from '../mcp-listing.js';
import { renderTable } from '../../report/table.js';
import { stringifyJsonSafely } from '../../sanitize.js';

/** `autohedge agents`: the five agents with the models they would use here. */
export async function agentsCommand(
  options: { json?: boolean; model?: string; mcpConfig?: string },
  io: CliIo,
): Promise<number> {
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
    io.stdout(`${stringifyJsonSafely(agents, 2)}\n`);
    return 0;
  }
  const rows = agents.map((agent) => [
    agent.id,
    agent.name,
    agent.model,
    agent.tools.join(', ') || '-',
    agent.description,
  ]);
  io.stdout(renderTable(['ID', 'NAME', 'MODEL', 'TOOLS', 'DESCRIPTION'], rows, io.stdoutIsTTY ? io.columns : 0));
  return 0;
}
