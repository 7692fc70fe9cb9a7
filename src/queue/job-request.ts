import { UsageError } from '../errors.js';
import {
  parseRunRequest,
  runRequest,
  type RequestDeclaration,
  type RunRequest,
  type RunRequestInput,
} from '../run/request.js';

/** What the worker itself decides of every job: its clients' server, tools and cassette, whether it saves, its cap. */
export type HostRequest = Omit<RunRequestInput, 'ticker'>;

/** Fields bound to the worker's one session: a job may name them only as the worker has them. */
const hostFields = ['baseUrl', 'mcpConfig', 'search', 'cassette'] as const;

/**
 * A job's RunRequest as this worker runs it. The job decides the analysis (ticker,
 * as-of, desks, model, limits) and the worker's flags fill what it leaves out; the
 * worker's session decides the server, MCP tools, search and cassette (a job asking for
 * others is refused, never quietly run on these: demo jobs run on demo workers only, and
 * the other way round); the worker decides saving; the cap is the lower of the job's and
 * the worker's. An unknown request version is a RunRequestError with `unknownVersion` (a
 * failed job, never a retry). `declaration`: the request the jobs are read with (a test or
 * a library caller may extend the built-in one).
 */
export function requestOnHost(
  data: unknown,
  host: HostRequest,
  declaration: RequestDeclaration = runRequest,
): RunRequest {
  const job = parseRunRequest(data, declaration);
  const worker = parseRunRequest({ ...host, ticker: job.ticker }, declaration);
  // A job that names no cassette would otherwise take the demo worker's: synthetic data for a real question.
  if (worker.cassette?.mode === 'demo' && job.cassette?.mode !== 'demo')
    throw new UsageError(
      'this worker replays the demo (worker --demo): it runs only jobs queued with `enqueue --demo`; run a worker without --demo for this one',
    );
  if (job.cassette?.mode === 'demo' && worker.cassette?.mode !== 'demo')
    throw new UsageError('a demo job (queued with `enqueue --demo`) runs on a demo worker: `autohedge worker --demo`');
  for (const field of hostFields) {
    if (job[field] !== undefined && JSON.stringify(job[field]) !== JSON.stringify(worker[field]))
      throw new UsageError(
        `the job asks for ${field} ${JSON.stringify(job[field])}, but this worker runs with ${JSON.stringify(worker[field] ?? null)}`,
      );
  }
  const raw = data as RunRequestInput;
  const caps = [job.maxCostUsd, worker.maxCostUsd].filter((cap): cap is number => cap !== null);
  return {
    ...job,
    model: job.model ?? worker.model,
    // A night worker started with --service-tier flex runs the jobs that name no tier on flex.
    ...((job.serviceTier ?? worker.serviceTier) ? { serviceTier: job.serviceTier ?? worker.serviceTier } : {}),
    limits: raw.limits === undefined ? worker.limits : job.limits,
    maxCostUsd: caps.length > 0 ? Math.min(...caps) : null,
    ...Object.fromEntries(hostFields.map((field) => [field, worker[field]])),
    save: worker.save,
    out: undefined,
  };
}
