/**
 * How an agent's request is laid out so that a provider's prompt cache can serve what the
 * calls of one ticker share.
 *
 * The cacheable layout: the first system message begins with the run's shared block (the
 * house preamble, then the market and fundamentals block: the same bytes for every agent
 * of a ticker and as-of), and only then the agent's own role; the task, the tool turns
 * and the review turns follow. Where the provider counts the tools and the response
 * schema as the start of its prefix (`head`), every call sends the same tool list, and a
 * structured answer comes through a forced strict tool (`submit_<name>`) instead of
 * response_format, whose schema would otherwise differ call by call.
 *
 * The legacy layout (no shared prefix: the role, then the task with the market block in
 * it) is what autohedge sent before; it is kept so that a version 1 cassette replays.
 */
import type { ChatMessage, NamedToolChoice, PromptCacheHint, ToolDefinition } from '../llm/types.js';
import { responseFormatFor } from './output.js';
import type { AgentOutput } from './types.js';

/** What every call of one ticker and as-of starts with. */
export interface SharedPrefix {
  /** The house preamble and the market block. */
  block: string;
  /** Sent as `prompt_cache_key`: `<ticker>@<asOf>` (a digest of the block in a blind run). */
  cacheKey: string;
  /** The one tool list of every call, when the provider's prefix starts with the tools (see above). */
  head?: ToolDefinition[];
}

/** Between the shared block and the agent's role. */
const separator = '\n\n';

export function openingMessages(instructions: string, task: string, shared: SharedPrefix | undefined): ChatMessage[] {
  const system = shared ? `${shared.block}${separator}${instructions}` : instructions;
  return [
    { role: 'system', content: system },
    { role: 'user', content: task },
  ];
}

export function cacheHintOf(shared: SharedPrefix): PromptCacheHint {
  return { key: shared.cacheKey, sharedChars: shared.block.length + separator.length };
}

/** The name of the strict tool a structured answer is submitted through. */
export const outputToolName = (output: Pick<AgentOutput<unknown>, 'name'>): string => `submit_${output.name}`;

/** The strict tool whose arguments are the structured answer: the same JSON schema response_format would carry. */
export function outputToolOf(output: AgentOutput<unknown>): ToolDefinition {
  // Already strict: the schema response_format would carry.
  const parameters = responseFormatFor(output).json_schema.schema;
  return {
    type: 'function',
    function: {
      name: outputToolName(output),
      description: `Submit your ${output.name} as the answer. Call this only when you are asked for your ${output.name}.`,
      parameters,
      strict: true,
    },
  };
}

export function forcedTool(name: string): NamedToolChoice {
  return { type: 'function', function: { name } };
}

/**
 * The run's one tool list: the structured answers' tools, then every agent's own, by name.
 * Null when two agents bind different tools under one name: one list cannot serve both,
 * so the calls then go out as each agent asks.
 */
export function sharedHead(
  outputs: ReadonlyArray<AgentOutput<unknown>>,
  tools: ToolDefinition[],
): ToolDefinition[] | null {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of [...outputs.map(outputToolOf), ...tools]) {
    const seen = byName.get(tool.function.name);
    if (seen && JSON.stringify(seen) !== JSON.stringify(tool)) return null;
    byName.set(tool.function.name, tool);
  }
  return [...byName.values()].sort((left, right) => compare(left.function.name, right.function.name));
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
