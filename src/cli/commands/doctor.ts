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

/** `autohedge doctor`: builds the real clients from the environment and prints the checks. */
export async function doctorCommand(options: DoctorCliOptions, rawIo: CliIo, deps: CliDeps): Promise<number> {
  const env = loadEnvFile(rawIo.cwd, rawIo.env);
  const io = redactingIo(rawIo, secretsOf(env));
  const [{ runDoctor, formatDoctorReport }, { createOpenAIModel, listModels }, { resolveModels }] = await Promise.all([
    import('../../doctor/run-doctor.js'),
    import('../../llm/openai-model.js'),
    import('../../pipeline/models.js'),
  ]);
  const { createMarketData, configuredSources } = await import('../../market/index.js');
  const market = deps.market ?? createMarketData({ sources: configuredSources({ env }) });
  const { resolveSearchChoice } = await import('../../search/choice.js');
  const searchChoice = resolveSearchChoice(options.search, env);
  const bounds = deps.doctorBounds ?? doctorBounds;
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
