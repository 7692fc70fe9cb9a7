import { parseRunRequest, runRequestVersion, type RunRequest, type RunRequestInput } from '../run/request.js';
import { requestAsOfFromFlag, resolveRunClocks } from '../run/as-of.js';
import { checkSearchForHistoricalRun } from '../search/choice.js';
import type { SearchChoice } from '../search/types.js';
import type { OptionValues } from './option-catalogue.js';

/** The catalogue options a RunRequest is made of (each shell takes the ones it has). */
type RequestFlags = Partial<
  OptionValues<
    | 'agent'
    | 'model'
    | 'baseUrl'
    | 'mcpConfig'
    | 'maxPosition'
    | 'maxRisk'
    | 'minRewardRisk'
    | 'maxCost'
    | 'asOf'
    | 'refresh'
    | 'record'
    | 'replay'
    | 'demo'
    | 'save'
    | 'out'
    | 'blind'
    | 'samples'
    | 'minAgreement'
    | 'serviceTier'
  >
>;

/**
 * The request the flags of one command describe, for every ticker it names: the one
 * mapping from catalogue options to RunRequest fields (analyze, enqueue, worker and
 * mcp alike). `search` is the choice already resolved with AUTOHEDGE_SEARCH.
 */
export function requestFromFlags(flags: RequestFlags, search?: SearchChoice): Omit<RunRequestInput, 'ticker'> {
  const cassette = flags.demo
    ? { mode: 'demo' as const }
    : flags.replay !== undefined
      ? { mode: 'replay' as const, path: flags.replay }
      : flags.record !== undefined
        ? { mode: 'record' as const, path: flags.record }
        : undefined;
  return {
    version: runRequestVersion,
    asOf: requestAsOfFromFlag(flags.asOf),
    agents: flags.agent ?? [],
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    ...(search !== undefined ? { search } : {}),
    limits: {
      ...(flags.maxPosition !== undefined ? { maxPositionPct: flags.maxPosition } : {}),
      ...(flags.maxRisk !== undefined ? { maxRiskPct: flags.maxRisk } : {}),
      ...(flags.minRewardRisk !== undefined ? { minRewardRisk: flags.minRewardRisk } : {}),
    },
    maxCostUsd: flags.maxCost ?? null,
    ...(flags.mcpConfig !== undefined ? { mcpConfig: flags.mcpConfig } : {}),
    ...(cassette ? { cassette } : {}),
    refresh: flags.refresh ?? false,
    save: flags.save ?? true,
    ...(flags.out !== undefined ? { out: flags.out } : {}),
    ...(flags.blind ? { blind: true } : {}),
    ...(flags.samples !== undefined && flags.samples > 1 ? { samples: flags.samples } : {}),
    ...(flags.minAgreement !== undefined ? { minAgreement: flags.minAgreement } : {}),
    ...(flags.serviceTier === 'flex' ? { serviceTier: 'flex' as const } : {}),
  };
}

/**
 * The requests of a command that runs its analyses in this process (analyze, watch): one per
 * ticker, naming the search only where --search chose it. Checked before any client exists:
 * a closed or future day on any ticker's exchange, or a search that cannot look back to it, is the user's to fix
 * with no request made.
 */
export function plannedRequests(
  tickers: readonly string[],
  flags: RequestFlags & { search?: string },
  search: SearchChoice,
  now: Date,
): RunRequest[] {
  const base = requestFromFlags(flags, flags.search === undefined ? undefined : search);
  const requests = tickers.map((ticker) => parseRunRequest({ ...base, ticker }));
  // Each ticker on its own exchange's clock: a day one of them did not trade is refused here.
  const clocks = resolveRunClocks(requests, now, () => new Date());
  checkSearchForHistoricalRun(
    search,
    clocks.some((clock) => clock.historical),
  );
  return requests;
}
