/**
 * The physical limit of one analysis: the longest chain of waits that depend on each
 * other. Model calls cost what the model server says it took to answer them (arrival to
 * last byte); the market snapshot and Sentiment's searches cost what Yahoo and Exa
 * took, as the analysing process saw them. Built from the structure of the pipeline,
 * not from the order the calls happened to run in, so a pipeline that waits when it
 * need not shows up as a ratio above 1 instead of hiding inside a longer "critical path".
 *
 *   market ──> plan ──> quant | risk | execution ──────────────┐
 *         └──> sentiment call 1 ──> search ──> call 2 ... ─────┴──> decision
 *
 * Sentiment needs nothing from the plan (its brief is standing), so its calls hang off
 * the snapshot, not off the plan.
 */

export type CallKind = 'plan' | 'decision' | 'desk';

export interface CallRecord {
  /** Director calls by schema; every worker call is a desk call. */
  kind: CallKind;
  /** The sending agent: 'director', 'quant', 'risk', 'execution', 'sentiment'. */
  agent: string;
  receivedAt: number;
  answeredAt: number;
}

export interface Interval {
  startedAt: number;
  endedAt: number;
}

export interface PathOptions {
  /** Desks that need nothing from the plan. Default: sentiment; [] gives the naive design, where every desk waits for the plan. */
  independentDesks?: readonly string[];
  /** The market snapshot's exchanges with Yahoo, all before the first model call. */
  market?: Interval[];
  /** Tool executions (Exa searches): each counts between the two calls of its agent that it falls between. */
  tools?: Interval[];
}

export interface CriticalPath {
  /** Summed waits along the longest dependent chain. */
  ms: number;
  /** The model calls' share of `ms`. */
  modelMs: number;
  /** That chain, one label per wait, e.g. ['market', 'plan', 'quant', 'decision']. */
  chain: string[];
}

const modelLabels = new Set(['plan', 'decision', 'quant', 'risk', 'execution', 'sentiment']);
const latencyOf = (call: CallRecord) => Math.max(0, call.answeredAt - call.receivedAt);
const byArrival = (a: CallRecord, b: CallRecord) => a.receivedAt - b.receivedAt;

interface Segment {
  ms: number;
  modelMs: number;
  chain: string[];
}

const none: Segment = { ms: 0, modelMs: 0, chain: [] };

function join(...segments: Segment[]): Segment {
  return {
    ms: segments.reduce((total, segment) => total + segment.ms, 0),
    modelMs: segments.reduce((total, segment) => total + segment.modelMs, 0),
    chain: segments.flatMap((segment) => segment.chain),
  };
}

function callsSegment(calls: CallRecord[]): Segment {
  return {
    ms: calls.reduce((total, call) => total + latencyOf(call), 0),
    modelMs: calls.reduce((total, call) => total + latencyOf(call), 0),
    chain: calls.map(labelOf),
  };
}

/** One agent's calls in order, with the slowest tool execution between each pair of them. */
function agentSegment(calls: CallRecord[], tools: Interval[]): Segment {
  const parts: Segment[] = [];
  for (const [index, call] of calls.entries()) {
    if (index > 0) {
      const previous = calls[index - 1]!;
      const between = tools.filter((tool) => tool.startedAt >= previous.answeredAt && tool.endedAt <= call.receivedAt);
      if (between.length > 0)
        parts.push({
          ms: Math.max(...between.map((tool) => tool.endedAt - tool.startedAt)),
          modelMs: 0,
          chain: ['search'],
        });
    }
    parts.push(callsSegment([call]));
  }
  return join(...parts);
}

/** Calls are one analysis's answered (not rate-limited) model calls. */
export function criticalPath(calls: CallRecord[], options: PathOptions = {}): CriticalPath {
  const independent = options.independentDesks ?? ['sentiment'];
  const market: Segment =
    options.market && options.market.length > 0
      ? { ms: serialMs(options.market), modelMs: 0, chain: ['market'] }
      : none;
  const plan = callsSegment(calls.filter((call) => call.kind === 'plan').sort(byArrival));
  const decision = callsSegment(calls.filter((call) => call.kind === 'decision').sort(byArrival));

  // Each desk's calls follow one another (tool rounds, a schema retry); desks other than the independent ones wait for the plan.
  const desks = new Map<string, CallRecord[]>();
  for (const call of calls.filter((candidate) => candidate.kind === 'desk').sort(byArrival)) {
    desks.set(call.agent, [...(desks.get(call.agent) ?? []), call]);
  }
  let beforeDecision = plan;
  for (const [agent, deskCalls] of desks) {
    const candidate = join(independent.includes(agent) ? none : plan, agentSegment(deskCalls, options.tools ?? []));
    if (candidate.ms > beforeDecision.ms) beforeDecision = candidate;
  }
  return join(market, beforeDecision, decision);
}

/** The longest run of intervals that happened one after another, in summed duration. */
export function serialMs(intervals: Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.startedAt - b.startedAt);
  const best: number[] = [];
  for (const [index, interval] of sorted.entries()) {
    let before = 0;
    for (let earlier = 0; earlier < index; earlier += 1) {
      if (sorted[earlier]!.endedAt <= interval.startedAt) before = Math.max(before, best[earlier]!);
    }
    best.push(before + (interval.endedAt - interval.startedAt));
  }
  return Math.max(0, ...best);
}

/**
 * The longest run of model calls that actually happened one after another (each
 * arrived after the previous one was answered): how serial the run was, in calls.
 */
export function observedSerialChain(calls: CallRecord[], toleranceMs = 1): string[] {
  const sorted = [...calls].sort(byArrival);
  const chains: string[][] = [];
  for (const [index, call] of sorted.entries()) {
    let best: string[] = [];
    for (let earlier = 0; earlier < index; earlier += 1) {
      const previous = sorted[earlier]!;
      if (previous.answeredAt <= call.receivedAt + toleranceMs && chains[earlier]!.length > best.length)
        best = chains[earlier]!;
    }
    chains.push([...best, labelOf(call)]);
  }
  return chains.reduce<string[]>((longest, chain) => (chain.length > longest.length ? chain : longest), []);
}

export function labelOf(call: CallRecord): string {
  return call.kind === 'desk' ? call.agent : call.kind;
}

/** The model calls of a chain. */
export function modelCalls(chain: string[]): string[] {
  return chain.filter((label) => modelLabels.has(label));
}

/** "plan → quant → decision", with repeated labels folded: "sentiment ×2". */
export function describeChain(chain: string[]): string {
  const parts: Array<{ label: string; count: number }> = [];
  for (const label of chain) {
    const last = parts.at(-1);
    if (last && last.label === label) last.count += 1;
    else parts.push({ label, count: 1 });
  }
  return parts.map((part) => (part.count > 1 ? `${part.label} ×${part.count}` : part.label)).join(' → ');
}
