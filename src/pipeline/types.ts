import type { AgentReport } from '../agent/types.js';
import type { MarketSnapshot } from '../market/types.js';

export const workerIds = ['quant', 'risk', 'execution', 'sentiment'] as const;
export type WorkerId = (typeof workerIds)[number];
export const agentIds = ['director', ...workerIds] as const;
export type AgentId = (typeof agentIds)[number];

export interface Plan {
  thesis: string;
  briefs: Record<WorkerId, string>;
}

export interface Decision {
  action: 'BUY' | 'SELL' | 'HOLD';
  /** 0–100. */
  conviction: number;
  timeHorizon: string;
  /** Percent of the portfolio, 0–100. */
  positionSizePct: number;
  orderType: 'market' | 'limit';
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
  rationale: string;
  keyRisks: string[];
  dissent: string | null;
}

export interface GuardrailFinding {
  rule: string;
  severity: 'info' | 'warning' | 'error';
  message: string;
}

export type RunStatus = 'ok' | 'degraded' | 'failed' | 'interrupted';

export interface AgentUsage {
  model: string;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  /** null when the model's price is unknown. */
  costUsd: number | null;
}

export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  /** null when any model's price is unknown. */
  costUsd: number | null;
  byAgent: Record<string, AgentUsage>;
  /** Tool calls made, by tool name (MCP tools as `<server>__<tool>`); absent in runs saved before it existed. */
  toolCalls?: Record<string, number>;
}

export interface AnalysisResult {
  runId: string;
  ticker: string;
  /** ISO timestamp of the run's clock. */
  asOf: string;
  status: RunStatus;
  /** "full" (Director and workers) or "agents" (--agent: selected workers only). */
  mode: 'full' | 'agents';
  market: MarketSnapshot | null;
  plan: Plan | null;
  reports: AgentReport[];
  decision: Decision | null;
  guardrails: GuardrailFinding[];
  usage: RunUsage;
  warnings: string[];
  /** Set when the run replays the shipped demo cassette: synthetic data, not advice. */
  demo: boolean;
  startedAt: string;
  durationMs: number;
  /** Why the run failed, when it did. */
  error: string | null;
}
