import type { AgentDefinition } from '../../agents/index.js';
import { desksOf, rosterSlots } from '../../agents/roster.js';
import type { AgentSpec } from '../agent/types.js';
import { isoDay } from '../clock.js';
import { planSchemaFor } from '../result/schemas.js';
import { bindTools } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { resolveModel } from './models.js';
import { fillTemplate, loadPrompt } from './prompts.js';

/** Tool rounds for an agent that has tools but whose definition allows none. */
export const toolRoundsWhenUnset = 3;

/** What turns the roster's definitions into runnable specs for one run. */
export interface SpecSource {
  roster: readonly AgentDefinition[];
  /** The tools definitions may name (`exa_search`, …). */
  toolsByName: Readonly<Record<string, Tool>>;
  /** Extra tools per agent id (MCP servers, a library caller's own), appended to the named ones. */
  agentTools?: Readonly<Partial<Record<string, Tool[]>>>;
  /**
   * Tools this run switched off (`--search none`), by name, with what an agent whose
   * definition names one is told in its task instead. They are not bound.
   */
  disabledTools?: Readonly<Record<string, string>>;
  asOf: Date;
  /** What the system prompts' "Today is {{date}}" says; default the as-of day (a blind run hides it). */
  dateLabel?: string;
  /** --model: one model for every agent. */
  model?: string;
  env: NodeJS.ProcessEnv;
  agentTimeoutMs?: number;
  toolTimeoutMs?: number;
}

const planSchemas = new WeakMap<readonly AgentDefinition[], ReturnType<typeof planSchemaFor>>();

/** The plan schema of a roster: one brief per desk. One object per roster, so every phase sends the same schema. */
export function planSchemaOf(roster: readonly AgentDefinition[]): ReturnType<typeof planSchemaFor> {
  let schema = planSchemas.get(roster);
  if (!schema) {
    schema = planSchemaFor(desksOf(roster).map((definition) => definition.id));
    planSchemas.set(roster, schema);
  }
  return schema;
}

export function definitionOf(roster: readonly AgentDefinition[], id: string): AgentDefinition {
  const definition = roster.find((candidate) => candidate.id === id);
  if (!definition) throw new Error(`no agent definition for '${id}'`);
  return definition;
}

/** One agent's spec: prompt, model, tools bound by name, limits — all from its definition. */
export function specFor(id: string, source: SpecSource): AgentSpec {
  const definition = definitionOf(source.roster, id);
  const named = definition.tools.filter((name) => !Object.hasOwn(source.disabledTools ?? {}, name));
  const tools = [...bindTools(id, named, source.toolsByName), ...(source.agentTools?.[id] ?? [])];
  return {
    id,
    name: definition.name,
    description: definition.description,
    model: resolveModel(definition, source.model, source.env),
    instructions: fillTemplate(loadPrompt(definition.promptFile), {
      ...rosterSlots(source.roster),
      date: source.dateLabel ?? isoDay(source.asOf),
    }),
    tools,
    maxToolRounds: tools.length > 0 && definition.maxToolRounds === 0 ? toolRoundsWhenUnset : definition.maxToolRounds,
    reviewPasses: definition.reviewPasses,
    temperature: definition.temperature,
    maxTokens: definition.maxTokens,
    timeoutMs: source.agentTimeoutMs ?? definition.timeoutMs,
    ...(source.toolTimeoutMs !== undefined ? { toolTimeoutMs: source.toolTimeoutMs } : {}),
  };
}

/** What an agent is told about the tools its definition names that this run switched off. */
export function disabledToolNotes(id: string, source: SpecSource): string {
  const disabled = source.disabledTools ?? {};
  return definitionOf(source.roster, id)
    .tools.filter((name) => Object.hasOwn(disabled, name))
    .map((name) => disabled[name])
    .join('');
}
