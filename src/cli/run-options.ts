import { resolveModels } from '../pipeline/models.js';
import { defaultMinAgreement } from '../pipeline/stability.js';
import type { AgentId, AnalysisResult, RunOptionsRecord } from '../result/types.js';
import { packageVersion } from '../paths.js';
import { resolveSearchChoice } from '../search/choice.js';
import type { AnalyzeCliOptions } from './command-table.js';
import type { Session } from './services.js';

/** The OpenAI SDK's own default, named when no base URL was given. */
const defaultApiHost = 'api.openai.com';

/** A base URL's host (and port): never its credentials, path or query. */
export function baseUrlHost(baseUrl: string | undefined): string {
  if (!baseUrl) return defaultApiHost;
  try {
    return new URL(baseUrl).host || defaultApiHost;
  } catch {
    return 'invalid URL';
  }
}

/** What shaped this command's runs, as saved in each result.json. */
export function runOptionsRecord(
  options: Pick<
    AnalyzeCliOptions,
    'model' | 'agent' | 'maxPosition' | 'maxRisk' | 'minRewardRisk' | 'maxCost' | 'search'
  > &
    Partial<Pick<AnalyzeCliOptions, 'blind' | 'samples' | 'minAgreement'>>,
  session: Pick<Session, 'env' | 'baseUrl'>,
): RunOptionsRecord {
  const models = resolveModels(options.model, session.env);
  const involved: string[] = options.agent.length > 0 ? options.agent : Object.keys(models);
  return {
    models: Object.fromEntries(involved.map((id) => [id, models[id as AgentId]])),
    baseUrlHost: baseUrlHost(session.baseUrl),
    maxPositionPct: options.maxPosition,
    maxRiskPct: options.maxRisk,
    minRewardRisk: options.minRewardRisk,
    maxCostUsd: options.maxCost ?? null,
    // The provider chosen (--search, AUTOHEDGE_SEARCH), not whether a key was set: a replay
    // of the same run must record the same options.
    search: options.blind ? 'none' : resolveSearchChoice(options.search, session.env),
    agents: [...options.agent],
    ...(options.blind ? { blind: true } : {}),
    ...((options.samples ?? 1) > 1
      ? { samples: options.samples, minAgreement: options.minAgreement ?? defaultMinAgreement }
      : {}),
  };
}

/** A result that says which autohedge made it and with what options. */
export function withRunRecord(result: AnalysisResult, record: RunOptionsRecord): AnalysisResult {
  return { ...result, autohedgeVersion: packageVersion(), options: record };
}
