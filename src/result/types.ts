import type { z } from 'zod';
import { agentIds, deskIds, type AgentId, type DeskId } from '../../agents/index.js';
import type { AgentFailure, AgentReport, FailureKind, ModelFailure } from '../agent/types.js';
import type { MarketSnapshot } from '../market/types.js';
import type { decisionSchema, planSchema } from './schemas.js';
import type { Stability } from './stability.js';
import type { Claim, ClaimsSummary } from './claims.js';

/** The roster lives in agents/; these names are kept for the readers that use them. */
export { agentIds, type AgentId };
export const workerIds = deskIds;
export type WorkerId = DeskId;

export type Plan = z.infer<typeof planSchema>;
/**
 * The plan as a saved run of any age holds it (src/result/result-schema.ts checks only the
 * thesis): the briefs of the desks the roster had then, if any.
 */
export type SavedPlan = Pick<Plan, 'thesis'> & { briefs?: Partial<Plan['briefs']> };
export type Decision = z.infer<typeof decisionSchema>;

/** Whether the models may know what came after asOf (computed in src/pipeline/contamination.ts). */
export type ContaminationLabel = 'clean' | 'contaminated' | 'unknown';

export interface ModelCutoff {
  model: string;
  /** YYYY-MM-DD, or null when unknown. */
  cutoff: string | null;
}

export interface Contamination {
  label: ContaminationLabel;
  /** Every model the run used, with its cutoff. */
  models: ModelCutoff[];
  /** One sentence for the report. */
  reason: string;
}

export interface GuardrailFinding {
  rule: string;
  severity: 'info' | 'warning' | 'error';
  message: string;
}

/** Decided by runStatus() (src/pipeline/run-status.ts), worst first: interrupted, failed, flagged, degraded, ok. */
export type RunStatus = 'ok' | 'degraded' | 'flagged' | 'failed' | 'interrupted';

/** The phase of a run a failure belongs to; `save` is the run service's own (src/run). */
export type RunStage = 'market' | 'plan' | 'desks' | 'decision' | 'save';

/**
 * What kept a run from being whole, typed for the code that acts on it (the queue's
 * retry verdict, the universe's "cap reached", exit codes): decided by runFailure()
 * (src/pipeline/run-failure.ts) from the same facts as the status. `market` is market
 * data that could not be had; `save` a run that could not be written.
 */
export interface RunFailure {
  stage: RunStage;
  kind: FailureKind | 'market' | 'save';
  message: string;
  /** Whether running the same request again may do better (a 429, a 5xx, a timeout; never a bad key or the cap). */
  retryable: boolean;
  /** The model error behind it, when there was one (with the server's retry-after, when it sent one). */
  model?: Pick<ModelFailure, 'kind' | 'status' | 'retryAfterMs'>;
}

/** One decision of the Director and what the guardrails found in it; a review pass adds the next. */
export interface DecisionRecord {
  decision: Decision;
  guardrails: GuardrailFinding[];
}

export interface AgentUsage {
  model: string;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  /** Prompt tokens written to a cache that bills writes apart (absent in runs saved before it existed). */
  cacheWriteTokens?: number;
  /** Of the prompt tokens, those served at the flex tier (absent: none). */
  flexPromptTokens?: number;
  /** null when the model's price is unknown. */
  costUsd: number | null;
  /** What the cache saved: cached tokens × (input price − cached price); null when the price is unknown. */
  cacheSavedUsd?: number | null;
}

/** The searches of a run, priced apart from the agents' own model calls. */
export interface SearchUsage {
  /** Which source answered: `exa` or `openai`. */
  provider: string;
  /** The search model, when a model answered (OpenAI's built-in search). */
  model: string | null;
  searches: number;
  /** The search model's tokens (0 for Exa). */
  promptTokens: number;
  completionTokens: number;
  /** Per-search fees plus the search model's tokens; null when the price is unknown. */
  costUsd: number | null;
}

export interface RunUsage {
  /** The agents' model calls (searches are in `search`). */
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  /** Prompt tokens written to a cache that bills writes apart (absent in runs saved before it existed). */
  cacheWriteTokens?: number;
  /** Everything the run spent, searches included; null when any price is unknown. */
  costUsd: number | null;
  /** What the prompt cache saved the agents' calls; null when a price is unknown (absent in older runs). */
  cacheSavedUsd?: number | null;
  byAgent: Record<string, AgentUsage>;
  /** Tool calls made, by tool name (MCP tools as `<server>__<tool>`); absent in runs saved before it existed. */
  toolCalls?: Record<string, number>;
  /** Absent when the run made no search. */
  search?: SearchUsage;
}

/**
 * The request a run was made from, saved with it as `options` so result.json explains
 * itself: the request's own fields under its own names (src/run/request.ts), less where it
 * ran and what it wrote, plus what the run resolved (src/run/run-record.ts). Runs saved
 * before it had the request's names are read into them (src/result/run-options.ts).
 */
export interface RunOptionsRecord {
  /** Resolved: the model of each agent that took part (or would have: the Director in a full run). */
  models: Record<string, string>;
  /** Resolved: host of the OpenAI-compatible server, e.g. "api.openai.com" or "127.0.0.1:11434". */
  baseUrlHost: string;
  /** Resolved: the web-search provider chosen for the search tool (`--search`: exa, openai, none). */
  search: string;
  /** The RunRequest version (`requestVersion` in runs saved before); absent before requests existed. */
  version?: number;
  /** The request's as-of: live, or a historical session's day. Absent before requests existed. */
  asOf?: { kind: 'live' } | { kind: 'historical'; day: string };
  /** --agent: the desks run alone; empty for a full run. */
  agents: string[];
  /** The request's limits; the risk and reward/risk limits are absent in runs saved before they were recorded. */
  limits: { maxPositionPct: number; maxRiskPct?: number; minRewardRisk?: number };
  /** --max-cost; null when no cap was set. */
  maxCostUsd: number | null;
  /** --blind (absent when not set). */
  blind?: boolean;
  /** --samples and --min-agreement as resolved (absent for one decision). */
  samples?: number;
  minAgreement?: number;
  /** --service-tier (absent when not set). */
  serviceTier?: string;
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
  /**
   * Every decision the Director made, in order: the first, then each revision of a
   * review pass. `decision` and `guardrails` are the last entry's. Absent in runs
   * saved before review passes existed.
   */
  decisionHistory?: DecisionRecord[];
  /**
   * Set when a review pass of the Director failed and the decision before it stands:
   * `replay-miss` when the cassette holds no review exchange (a warning, not a replay miss).
   */
  reviewFailure?: AgentFailure;
  usage: RunUsage;
  warnings: string[];
  /** Set when the run replays the shipped demo cassette: synthetic data, not advice. */
  demo: boolean;
  startedAt: string;
  durationMs: number;
  /** Why the run failed, when it did. */
  error: string | null;
  /** What kept the run from being whole (failed, interrupted, or degraded by a failure); absent when nothing did, and in older runs. */
  failure?: RunFailure;
  /**
   * `historical`: a run as of a past session's close (`--as-of`), which saw nothing after
   * it; `live`: as of the moment it ran. Absent in runs saved before it existed (live).
   */
  asOfMode?: 'live' | 'historical';
  /** Whether the models may know what came after asOf. Absent in older runs. */
  contamination?: Contamination;
  /** The autohedge version that made the run (absent in runs saved before 0.2). */
  autohedgeVersion?: string;
  /** The options that shaped the run (absent in runs saved before 0.2, and from library callers that do not set it). */
  options?: RunOptionsRecord;
  /** Which source backed the search tool (`--search`); absent in runs saved before it existed. */
  search?: { provider: 'exa' | 'openai' | 'none' | 'custom'; model: string | null };
  /**
   * Set on a `--blind` run: the alias the models saw, and the scale from their prices to
   * real ones (real = blind × scale). The decision and its history are in real prices; the
   * desks' and the Director's words quote blind ones.
   */
  blind?: { alias: string; scale: number };
  /** Set with `--samples k` (k ≥ 2): how much the Director's decision moves when asked again. */
  stability?: Stability;
  /** Set with `--samples k` (k ≥ 2): samples asked for, and how many made a decision (fewer when the cap cut them). */
  samples?: { asked: number; made: number };
  /**
   * Every figure in the prose (desk reports, the plan, the decision's texts) matched against
   * what the run saw (docs/claims.md). Absent in runs saved before claims existed.
   */
  claims?: Claim[];
  /** The claims counted, for the run and per agent. Absent with `claims`. */
  claimsSummary?: ClaimsSummary;
}
