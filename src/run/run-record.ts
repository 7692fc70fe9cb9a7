import { resolveModels } from '../pipeline/models.js';
import { defaultMinAgreement } from '../pipeline/stability.js';
import { packageVersion } from '../paths.js';
import type { AgentId, AnalysisResult, RunOptionsRecord } from '../result/types.js';
import { resolveSearchChoice } from '../search/choice.js';
import type { RunRequest } from './request.js';

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

/**
 * The request as it ran, saved in result.json as `options`: the models and search as
 * resolved where it ran, the server by host only, the limits and the cap. Where it was
 * saved and how it was printed (the sinks) are not part of it.
 */
export function runRecord(
  request: RunRequest,
  session: { env: NodeJS.ProcessEnv; baseUrl: string | undefined },
): RunOptionsRecord {
  const models = resolveModels(request.model, session.env);
  const involved: string[] = request.agents.length > 0 ? request.agents : Object.keys(models);
  return {
    models: Object.fromEntries(involved.map((id) => [id, models[id as AgentId]])),
    baseUrlHost: baseUrlHost(session.baseUrl),
    maxPositionPct: request.limits.maxPositionPct,
    maxRiskPct: request.limits.maxRiskPct,
    minRewardRisk: request.limits.minRewardRisk,
    maxCostUsd: request.maxCostUsd,
    // The provider chosen (the request, else AUTOHEDGE_SEARCH), not whether a key was set:
    // a replay of the same run must record the same options.
    search: request.blind ? 'none' : resolveSearchChoice(request.search, session.env),
    agents: [...request.agents],
    ...(request.blind ? { blind: true } : {}),
    ...(request.samples > 1
      ? { samples: request.samples, minAgreement: request.minAgreement ?? defaultMinAgreement }
      : {}),
    requestVersion: request.version,
    asOf: request.asOf,
  };
}

/** A result that says which autohedge made it and with what request. */
export function withRunRecord(result: AnalysisResult, record: RunOptionsRecord): AnalysisResult {
  return { ...result, autohedgeVersion: packageVersion(), options: record };
}
