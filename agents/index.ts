/**
 * The five agents as data, and the one roster: ids, display names and order come
 * from here alone. Prompts live in prompts/<promptFile>; tools are named here and
 * bound by name by the pipeline (src/tools/registry.ts `bindTools`), so a spec stays
 * plain data that `autohedge agents` can list without building any client.
 */
export interface AgentDefinition {
  id: string;
  /** The Director plans and decides; desks report. */
  role: 'director' | 'desk';
  name: string;
  description: string;
  defaultModel: string;
  /** A file in prompts/, or an absolute path (a library caller's own desk). */
  promptFile: string;
  /** Tool names, bound through the pipeline's registry. */
  tools: readonly string[];
  /** Tool rounds before a forced final answer; an agent with tools and 0 here gets 3. */
  maxToolRounds: number;
  /**
   * Review passes after the first answer: the original AutoHedge's `max_loops`
   * (minus one). The Director's passes run only when its decision breaks a
   * guardrail rule, with the findings; 0 disables.
   */
  reviewPasses: number;
  /** Wall-clock limit for this agent's whole run. */
  timeoutMs: number;
  temperature: number;
  /** Completion cap per model call (also the budget's worst case). */
  maxTokens: number;
  /** A desk's own brief when it runs without the Director's ({{ticker}} is filled in). */
  standingBrief?: string;
  /** The desk needs nothing from the plan: it starts with the snapshot, on its standing brief. */
  startsWithSnapshot?: boolean;
  /** A desk's remit in a few words, as the Director's prompt lists it: "Quant (technicals)". */
  remit?: string;
}

/** What the four desks share unless a desk says otherwise. */
const desk = {
  role: 'desk',
  tools: [],
  maxToolRounds: 0,
  reviewPasses: 0,
  timeoutMs: 120_000,
  temperature: 0.2,
  maxTokens: 1_200,
} as const satisfies Partial<AgentDefinition>;

export const agentDefinitions = [
  {
    ...desk,
    id: 'director',
    role: 'director',
    name: 'Director',
    description: 'Writes the thesis, briefs the desks, and turns their reports into one decision.',
    defaultModel: 'gpt-4.1',
    promptFile: 'director.md',
    maxTokens: 1_500,
    // One revision when the decision breaks a guardrail rule.
    reviewPasses: 1,
  },
  {
    ...desk,
    id: 'quant',
    name: 'Quant',
    description: 'Technicals, momentum, volatility and key levels, scored from the market data.',
    defaultModel: 'gpt-4.1',
    promptFile: 'quant.md',
    remit: 'technicals',
    standingBrief: 'Give your technical read of {{ticker}}.',
  },
  {
    ...desk,
    id: 'risk',
    name: 'Risk',
    description: 'Position size, drawdown, exposure and an overall risk score.',
    defaultModel: 'gpt-4.1',
    promptFile: 'risk.md',
    remit: 'sizing and drawdown',
    standingBrief: 'Assess the risk of a position in {{ticker}} and size it.',
  },
  {
    ...desk,
    id: 'execution',
    name: 'Execution',
    description: 'Order type, size, entry, stop, take-profit and time in force.',
    defaultModel: 'gpt-4.1',
    promptFile: 'execution.md',
    remit: 'order plan',
    standingBrief: 'Propose an order plan for {{ticker}}.',
  },
  {
    ...desk,
    id: 'sentiment',
    name: 'Sentiment',
    description: 'Searches recent news with exa_search and scores the sentiment, citing sources.',
    defaultModel: 'gpt-4o-mini',
    promptFile: 'sentiment.md',
    remit: 'news, searched on the web',
    tools: ['exa_search'],
    maxToolRounds: 3,
    timeoutMs: 180_000,
    standingBrief: 'Research the news and sentiment on {{ticker}} over the last 30 days.',
    startsWithSnapshot: true,
  },
] as const satisfies readonly AgentDefinition[];

export type AgentId = (typeof agentDefinitions)[number]['id'];
export type DeskId = Extract<(typeof agentDefinitions)[number], { role: 'desk' }>['id'];

/** Every agent id, the Director first, then the desks in report order. */
export const agentIds: readonly AgentId[] = agentDefinitions.map((definition) => definition.id);

/** The desks in report order. */
export const deskIds = agentDefinitions.flatMap((definition) =>
  definition.role === 'desk' ? [definition.id] : [],
) as readonly DeskId[];

/** A display name for an agent id; an id the roster does not know shows as itself. */
export function agentName(id: string): string {
  return (agentDefinitions as readonly AgentDefinition[]).find((definition) => definition.id === id)?.name ?? id;
}
