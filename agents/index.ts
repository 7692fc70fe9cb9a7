/**
 * The five agents as data. Prompts live in prompts/<promptFile>; tools are named
 * here and bound by the pipeline, so a spec stays plain data that `autohedge
 * agents` can list without building any client.
 */
export interface AgentDefinition {
  id: 'director' | 'quant' | 'risk' | 'execution' | 'sentiment';
  name: string;
  description: string;
  defaultModel: string;
  promptFile: string;
  tools: ReadonlyArray<'exa_search'>;
  maxToolRounds: number;
  maxLoops: number;
  /** Wall-clock limit for this agent's whole run. */
  timeoutMs: number;
  temperature: number;
  /** Completion cap per model call (also the budget's worst case). */
  maxTokens: number;
}

/** What the four desks share unless a desk says otherwise. */
const desk = {
  tools: [],
  maxToolRounds: 0,
  maxLoops: 1,
  timeoutMs: 120_000,
  temperature: 0.2,
  maxTokens: 1_200,
} as const satisfies Partial<AgentDefinition>;

export const agentDefinitions: readonly AgentDefinition[] = [
  {
    ...desk,
    id: 'director',
    name: 'Director',
    description: 'Writes the thesis, briefs the desks, and turns their reports into one decision.',
    defaultModel: 'gpt-4.1',
    promptFile: 'director.md',
    maxTokens: 1_500,
  },
  {
    ...desk,
    id: 'quant',
    name: 'Quant',
    description: 'Technicals, momentum, volatility and key levels, scored from the market data.',
    defaultModel: 'gpt-4.1',
    promptFile: 'quant.md',
  },
  {
    ...desk,
    id: 'risk',
    name: 'Risk',
    description: 'Position size, drawdown, exposure and an overall risk score.',
    defaultModel: 'gpt-4.1',
    promptFile: 'risk.md',
  },
  {
    ...desk,
    id: 'execution',
    name: 'Execution',
    description: 'Order type, size, entry, stop, take-profit and time in force.',
    defaultModel: 'gpt-4.1',
    promptFile: 'execution.md',
  },
  {
    ...desk,
    id: 'sentiment',
    name: 'Sentiment',
    description: 'Searches recent news with exa_search and scores the sentiment, citing sources.',
    defaultModel: 'gpt-4o-mini',
    promptFile: 'sentiment.md',
    tools: ['exa_search'],
    maxToolRounds: 3,
    timeoutMs: 180_000,
  },
];
