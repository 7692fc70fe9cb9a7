import { ExitCode } from '../../errors.js';
import type { ConfigFacts } from '../../doctor/config-checks.js';
import type { DoctorReport } from '../../doctor/types.js';
import type { CliDeps } from '../deps.js';
import { loadEnvFile } from '../env-file.js';
import type { CliIo } from '../io.js';
import type { DoctorCliOptions } from '../command-table.js';
import { redactingIo } from '../redact.js';
import { buildSearch, secretsOf } from '../services.js';
import { stringifyJsonSafely } from '../../sanitize.js';
import { boundedFetch, type FetchBounds } from '../../doctor/bounded-fetch.js';

/** A check's whole exchange, body included, and the most it may send (a `/models` list is well under 1 MB). */
const doctorBounds: FetchBounds = { deadlineMs: 30_000, maxBytes: 16_000_000 };
/** A model on the same machine may run on a CPU: a decision there can take minutes, not seconds. */
const loopbackDeadlineMs = 300_000;

/** `autohedge doctor`: builds the real clients from the environment and prints the checks. */
export async function doctorCommand(options: DoctorCliOptions, rawIo: CliIo, deps: CliDeps): Promise<number> {
  const env = loadEnvFile(rawIo.cwd, rawIo.env);
  const io = redactingIo(rawIo, secretsOf(env));
  const [
    { runDoctor, formatDoctorReport },
    { createOpenAIModel, listModels },
    { resolveModels },
    { detectEngine, noEngine },
  ] = await Promise.all([
    import('../../doctor/run-doctor.js'),
    import('../../llm/openai-model.js'),
    import('../../pipeline/models.js'),
    import('../../llm/engine.js'),
  ]);
  const { createMarketData, configuredSources } = await import('../../market/index.js');
  const market = deps.market ?? createMarketData({ sources: configuredSources({ env }) });
  const { resolveSearchChoice } = await import('../../search/choice.js');
  const searchChoice = resolveSearchChoice(options.search, env);
  const { bounds, limits } = boundsFor(options.baseUrl ?? env.OPENAI_BASE_URL?.trim(), deps.doctorBounds);
  // A fresh bounded fetch per client: each check's exchange has its own deadline and size bound.
  const clientOptions = (facts: ConfigFacts) => ({
    apiKey: facts.apiKey,
    baseURL: facts.baseURL,
    timeoutMs: bounds.deadlineMs,
    maxRetries: 1,
    fetch: boundedFetch(bounds),
  });
  const model = resolveModels(options.model, env).director;
  // The checks' own pacers: what the server's rate-limit headers announce is reported.
  const { createPacerRegistry } = await import('../../llm/pacer.js');
  const pacers = createPacerRegistry();
  const checks = runDoctor({
    env,
    cwd: rawIo.cwd,
    model,
    ...(options.baseUrl ? { baseUrlOption: options.baseUrl } : {}),
    probe: (facts) => ({
      model,
      chat: (overrides) => createOpenAIModel({ ...clientOptions(facts), pacers, ...overrides }),
      listModels: () => listModels(clientOptions(facts)),
      engine: () =>
        facts.baseURL
          ? detectEngine(facts.baseURL, model, boundedFetch(bounds), facts.apiKey)
          : Promise.resolve(noEngine),
      rateLimits: async () => {
        const all = await Promise.all(pacers.entries().map(([, pacer]) => pacer.stats()));
        return all.find((stats) => stats.limits.tokensPerMinute ?? stats.limits.requestsPerMinute)?.limits ?? {};
      },
    }),
    market,
    search: async (facts) => ({
      choice: searchChoice,
      // Exa without a key is reported as such rather than searched.
      provider:
        deps.search ??
        (searchChoice === 'exa' && !facts.exaKey
          ? null
          : await buildSearch(searchChoice, {
              env,
              replay: false,
              recordedUrls: [],
              apiKey: facts.apiKey,
              baseURL: facts.baseURL,
            })),
    }),
    asOf: (deps.now ?? (() => new Date()))(),
    limits,
    toolsNeeded: agentsHaveTools(searchChoice, env),
    ...(options.conformance ? { conformance: { tries: options.tries } } : {}),
  });
  // The checks wait on servers that may never answer: Ctrl-C (SIGTERM, SIGHUP) ends doctor at once.
  const report = await untilAborted(checks, rawIo.signal);
  if (report === null) {
    io.stderr('autohedge: doctor interrupted\n');
    return ExitCode.interrupted;
  }
  io.stdout(options.json ? `${stringifyJsonSafely(report, 2)}\n` : formatDoctorReport(report));
  return report.exitCode;
}

/** Only Sentiment's search is a tool in the roster (Exa's only with a key); MCP tools come from AUTOHEDGE_MCP_CONFIG. */
function agentsHaveTools(searchChoice: string, env: NodeJS.ProcessEnv): boolean {
  if (env.AUTOHEDGE_MCP_CONFIG?.trim()) return true;
  return searchChoice === 'openai' || (searchChoice === 'exa' && Boolean(env.EXA_API_KEY?.trim()));
}

/** The bounds of each exchange, and the line that states them: longer for a server on this machine. */
function boundsFor(baseUrl: string | undefined, injected: FetchBounds | undefined) {
  const loopback = isLoopback(baseUrl);
  const bounds = injected ?? (loopback ? { ...doctorBounds, deadlineMs: loopbackDeadlineMs } : doctorBounds);
  const why = loopback ? ' (a loopback server: longer than the 30 s for others)' : '';
  return { bounds, limits: `each exchange may take up to ${Math.round(bounds.deadlineMs / 1000)} s${why}` };
}

/** 127.0.0.0/8, ::1 or localhost: a server on this machine. */
function isLoopback(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** The checks' report, or null as soon as the command is interrupted. */
async function untilAborted(
  checks: Promise<DoctorReport>,
  signal: AbortSignal | undefined,
): Promise<DoctorReport | null> {
  if (!signal) return checks;
  // Still running when interrupted: its late failure must not surface as an unhandled rejection.
  checks.catch(() => {});
  if (signal.aborted) return null;
  let stop: () => void = () => {};
  const aborted = new Promise<null>((resolve) => {
    stop = () => resolve(null);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([checks, aborted]);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
