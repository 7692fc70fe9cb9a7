import { createHash } from 'node:crypto';
import type { AgentDefinition } from '../../agents/index.js';
import { rosterSlots } from '../../agents/roster.js';
import { isoDay } from '../clock.js';
import { sharedHead, type SharedPrefix } from '../agent/layout.js';
import type { AgentOutput } from '../agent/types.js';
import type { CacheCapabilities } from '../llm/cache-capabilities.js';
import { fillTemplate, loadPrompt } from './prompts.js';
import { specFor, type SpecSource } from './specs.js';

/**
 * `cacheable`: every request of a ticker starts with the same shared block (src/agent/layout.ts);
 * `legacy`: the layout before it, which a version 1 cassette recorded.
 */
export type PromptLayout = 'cacheable' | 'legacy';

/**
 * The house preamble: the same for every agent and ticker, with no date, run id or ticker
 * in it; it names the roster's desks (default: agents/).
 */
export function housePreamble(roster?: readonly AgentDefinition[]): string {
  return fillTemplate(loadPrompt('house.md'), rosterSlots(roster)).trimEnd();
}

export function sharedBlockOf(marketBlock: string, roster?: readonly AgentDefinition[]): string {
  return `${housePreamble(roster)}\n\n${marketBlock}`;
}

/**
 * `<ticker>@<asOf>`: what groups one ticker's calls on the provider's side. A blind run
 * must not name the company or the day, so its key is a digest of the block it shares,
 * which the provider sees anyway.
 */
export function cacheKeyOf(ticker: string, asOf: Date, blindBlock: string | null): string {
  if (blindBlock !== null) return `blind-${createHash('sha256').update(blindBlock).digest('hex').slice(0, 16)}`;
  // The day, not the instant: a live run's clock moves between a job's attempts, its block does not.
  return `${ticker}@${isoDay(asOf)}`;
}

export interface SharedPrefixInput {
  /** The agents this run will start. */
  agents: readonly string[];
  specs: SpecSource;
  block: string;
  cacheKey: string;
  /** The Director's structured answers, when it runs. */
  outputs: ReadonlyArray<AgentOutput<unknown>>;
  /** The model server's cache capabilities per model (ChatModel.cacheCapabilities); absent: none known. */
  capabilities?: (model: string) => CacheCapabilities;
}

/**
 * Each agent's shared prefix. The agents on one model share a cache: where that model's
 * prefix starts with the tools and the schema, they get one head (the union of their tools
 * and the Director's submit tools), so the desks can read what the plan call wrote. An
 * agent alone on its model keeps its own tools: it shares a cache with no one.
 */
export function sharedPrefixes(input: SharedPrefixInput): (agent: string) => SharedPrefix {
  const models = new Map(input.agents.map((id) => [id, specFor(id, input.specs).model]));
  const heads = new Map<string, SharedPrefix['head']>();
  for (const model of new Set(models.values())) {
    const group = input.agents.filter((id) => models.get(id) === model);
    if (group.length < 2 || input.capabilities?.(model).toolsInPrefix !== true) continue;
    const tools = group.flatMap((id) => specFor(id, input.specs).tools.map((tool) => tool.definition));
    const outputs = group.includes('director') ? input.outputs : [];
    const head = sharedHead(outputs, tools);
    if (head) heads.set(model, head);
  }
  return (agent) => {
    const head = heads.get(models.get(agent) ?? '');
    return { block: input.block, cacheKey: input.cacheKey, ...(head ? { head } : {}) };
  };
}
