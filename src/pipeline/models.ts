import { agentDefinitions, type AgentDefinition } from '../../agents/index.js';
import type { AgentId } from '../result/types.js';

/**
 * Which model each agent uses: --model (every agent) wins over
 * AUTOHEDGE_MODEL_<ID>, which wins over AUTOHEDGE_MODEL, which wins over the
 * agent's default.
 */
export function resolveModel(
  definition: AgentDefinition,
  override: string | undefined,
  env: NodeJS.ProcessEnv,
): string {
  const perAgent = env[`AUTOHEDGE_MODEL_${definition.id.toUpperCase()}`]?.trim();
  const all = env.AUTOHEDGE_MODEL?.trim();
  return override?.trim() || perAgent || all || definition.defaultModel;
}

export function resolveModels(override: string | undefined, env: NodeJS.ProcessEnv): Record<AgentId, string> {
  const models = {} as Record<AgentId, string>;
  for (const definition of agentDefinitions) models[definition.id] = resolveModel(definition, override, env);
  return models;
}
