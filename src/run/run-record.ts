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
 * Request fields the record leaves out: the ticker (the result's own), where it ran (the
 * server and the model are recorded as resolved below; the MCP config, the cassette) and
 * what it wrote. Every other field is recorded under its own name, a new one included.
 */
const unrecorded = ['ticker', 'model', 'baseUrl', 'search', 'mcpConfig', 'cassette', 'refresh', 'save', 'out'];

/**
 * The request as it ran, saved in result.json as `options`: its fields under the request's
 * names, and what it resolved where it ran — the models, the search, the server by host only.
 * One decision (samples 1) and a run that is not blind leave those fields out, as before.
 */
export function runRecord(
  request: RunRequest,
  session: { env: NodeJS.ProcessEnv; baseUrl: string | undefined },
): RunOptionsRecord {
  const models = resolveModels(request.model, session.env);
  const involved: string[] = request.agents.length > 0 ? request.agents : Object.keys(models);
  const { blind, samples, minAgreement, ...asked } = Object.fromEntries(
    Object.entries(request).filter(([field]) => !unrecorded.includes(field)),
  ) as Partial<RunRequest>;
  return {
    models: Object.fromEntries(involved.map((id) => [id, models[id as AgentId]])),
    baseUrlHost: baseUrlHost(session.baseUrl),
    // The provider chosen (the request, else AUTOHEDGE_SEARCH), not whether a key was set:
    // a replay of the same run must record the same options.
    search: request.blind ? 'none' : resolveSearchChoice(request.search, session.env),
    ...(asked as Omit<RunOptionsRecord, 'models' | 'baseUrlHost' | 'search'>),
    agents: [...request.agents],
    ...(blind ? { blind: true } : {}),
    ...(samples !== undefined && samples > 1 ? { samples, minAgreement: minAgreement ?? defaultMinAgreement } : {}),
  };
}

/** A result that says which autohedge made it and with what request. */
export function withRunRecord(result: AnalysisResult, record: RunOptionsRecord): AnalysisResult {
  return { ...result, autohedgeVersion: packageVersion(), options: record };
}
