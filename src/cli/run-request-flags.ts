import { parseRunRequest, runRequestVersion, type RunRequest, type RunRequestInput } from '../run/request.js';
import { requestAsOfFromFlag, resolveRunClocks } from '../run/as-of.js';
import { checkSearchForHistoricalRun } from '../search/choice.js';
import type { SearchChoice } from '../search/types.js';
import { optionCatalogue, type OptionEntry, type OptionKey, type OptionValues } from './option-catalogue.js';

/** The catalogue options a RunRequest is made of: those whose entry names a request field (each shell takes the ones it has). */
type RequestOption = {
  [K in OptionKey]: (typeof optionCatalogue)[K] extends { request: string } ? K : never;
}[OptionKey];
type RequestFlags = Partial<OptionValues<RequestOption>>;

/** Options whose value changes form on the way: a day to an as-of, three flags to one cassette, the resolved search, the standard tier as none. */
const converted = new Set(['asOf', 'record', 'replay', 'demo', 'search', 'serviceTier']);

/**
 * The request the flags of one command describe, for every ticker it names: each option
 * whose catalogue entry names a request field goes there (analyze, enqueue, worker and mcp
 * alike). `search` is the choice already resolved with AUTOHEDGE_SEARCH. `catalogue`: the
 * built-in one, or one a test extends with an option of its own.
 */
export function requestFromFlags(
  flags: RequestFlags,
  search?: SearchChoice,
  catalogue: Readonly<Record<string, OptionEntry>> = optionCatalogue,
): Omit<RunRequestInput, 'ticker'> {
  const request: Record<string, unknown> = { version: runRequestVersion, limits: {} };
  const values = flags as Record<string, unknown>;
  for (const [key, entry] of Object.entries(catalogue)) {
    if (entry.request === undefined || converted.has(key) || values[key] === undefined) continue;
    setField(request, entry.request, values[key]);
  }
  const cassette = cassetteOf(flags);
  return {
    ...(request as Omit<RunRequestInput, 'ticker'>),
    asOf: requestAsOfFromFlag(flags.asOf),
    ...(search !== undefined ? { search } : {}),
    ...(cassette ? { cassette } : {}),
    ...(flags.serviceTier === 'flex' ? { serviceTier: 'flex' as const } : {}),
  };
}

/** `limits.maxPositionPct`: a field of a nested object of the request. */
function setField(request: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) {
    request[head!] = value;
    return;
  }
  const nested = (request[head!] ??= {}) as Record<string, unknown>;
  setField(nested, rest.join('.'), value);
}

/** --demo, else --replay, else --record. */
function cassetteOf(flags: RequestFlags): RunRequestInput['cassette'] {
  if (flags.demo) return { mode: 'demo' };
  if (flags.replay !== undefined) return { mode: 'replay', path: flags.replay };
  if (flags.record !== undefined) return { mode: 'record', path: flags.record };
  return undefined;
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
