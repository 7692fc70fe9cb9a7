// The library: the same code path the CLI uses.
export { analyze, type AnalyzeDeps, type AnalyzeOptions } from './pipeline/analyze.js';
export { analyzeMany, type TickerOutcome } from './universe/analyze-many.js';
export { checkDecision, defaultLimits, type GuardrailLimits } from './guardrails/guardrails.js';
export {
  checkClaims,
  claimFindings,
  claimLimits,
  extractFigures,
  type Claim,
  type ClaimCounts,
  type ClaimStatus,
  type ClaimsInput,
  type ClaimsSummary,
} from './claims/index.js';
export { SpendingCap, withBudget } from './pipeline/budget.js';
export {
  parseRunRequest,
  runRequestSchema,
  runRequestVersion,
  RunRequestError,
  type RunRequest,
  type RunRequestInput,
} from './run/request.js';
export { runAndSave, type RunScope, type RunSession, type RunSinks, type SavedRun } from './run/run-and-save.js';
export { scopeCap } from './run/cap.js';
export type {
  AnalysisResult,
  Decision,
  DecisionRecord,
  GuardrailFinding,
  Plan,
  RunFailure,
  RunStatus,
  RunUsage,
  AgentId,
  WorkerId,
} from './result/types.js';
export { runAgent } from './agent/run-agent.js';
export type {
  AgentContext,
  AgentFailure,
  AgentOutput,
  AgentReport,
  AgentSpec,
  FailureKind,
  ReviewStep,
  ToolCallRecord,
} from './agent/types.js';
export { runStatus, type RunFacts } from './pipeline/run-status.js';
export { runFailure, type FailureFacts } from './pipeline/run-failure.js';
export { agentDefinitions, type AgentDefinition } from '../agents/index.js';
export { defineJsonTool, defineTool } from './tools/define-tool.js';
export { ToolRegistry } from './tools/registry.js';
export type { JsonToolSpec, ParsedArguments, Tool, ToolContext, ToolOrigin, ToolSpec } from './tools/types.js';
export { createExaSearchTool } from './tools/exa-search.js';
export { createExaProvider } from './search/exa.js';
export {
  SearchError,
  type SearchProvider,
  type SearchRequest,
  type SearchResult,
  type SearchOutcome,
} from './search/types.js';
export { createOpenAIModel } from './llm/openai-model.js';
export type {
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  ToolCall,
  ToolDefinition,
  Usage,
} from './llm/types.js';
export type { MarketData, MarketSnapshot, Bar, BarsOptions, Indicators } from './market/types.js';
export { resolveAsOf, type HistoricalAsOf } from './market/as-of.js';
// Exchange calendars: the exchange of a ticker (its market-data suffix) and its sessions, holidays, early closes and breaks.
export {
  exchangeCalendar,
  exchangeOf,
  exchanges,
  type Exchange,
  type ExchangeCalendar,
  type Session,
} from './market/calendar/index.js';
export {
  contaminationOf,
  cutoffFor,
  trainingCutoffs,
  type Contamination,
  type ContaminationLabel,
} from './pipeline/contamination.js';
export {
  evaluateRuns,
  type DecisionRow,
  type Evaluation,
  type EvaluateOptions,
  type HorizonResult,
  type PriceSource,
} from './evaluate/evaluate.js';
export {
  summarize,
  type EvaluationSummary,
  type GroupSummary,
  type StrategyStats,
  type SummaryOptions,
} from './evaluate/summary.js';
export type { Attribution, AttributionOptions } from './evaluate/attribution.js';
export { evaluationDocument, type EvaluationView } from './evaluate/document.js';
export { constructPortfolio } from './portfolio/construct.js';
export { PortfolioInfeasibleError } from './portfolio/errors.js';
export { parseHoldings, resolveCash } from './portfolio/holdings.js';
export { defaultPortfolioLimits } from './portfolio/limits.js';
export type {
  Holdings,
  PortfolioInput,
  PortfolioLimits,
  PortfolioPlan,
  DecisionInput as PortfolioDecision,
  MarketInput as PortfolioMarketInput,
} from './portfolio/types.js';
export type { RunEvent, EventSink } from './events.js';
export * from './errors.js';
// MCP servers as tool sources: `analyze(…, { …, agentTools: sources.agentTools })`, then `sources.close()`.
export {
  loadMcpConfig,
  openMcpTools,
  type McpConfig,
  type McpServerConfig,
  type McpTool,
  type McpToolSources,
} from './mcp/index.js';
// Blind runs: the snapshot with its identity and calendar hidden, and the way back to real prices.
export {
  alphabeticalAlias,
  blindSnapshot,
  defaultAlias,
  type BlindOptions,
  type BlindSnapshot,
  type PriceLevels,
  type Unblind,
} from './market/blind.js';
// The decision ledger (docs/ledger.md): append a saved run, verify a ledger or an export.
export {
  appendRunToLedger,
  verifyLedgerFile,
  verifyChain,
  LedgerError,
  type LedgerAppendInput,
  type LedgerRecord,
  type VerifyReport,
  type BadRecord,
  type BadReason,
} from './ledger/index.js';
