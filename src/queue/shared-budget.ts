/**
 * The pacer's buckets in Redis, so every worker on one Redis paces against one quota:
 * the same arithmetic as src/llm/pacer-buckets.ts (continuous refill, reservations at
 * send, the level following each answer's `x-ratelimit-remaining-*` less what was sent
 * after it and is unanswered — by any worker), each step one Lua script, so workers
 * never race. Redis's own clock (TIME) is the clock, so hosts' clocks need not agree.
 *
 * Keys (per pacer key, hashed: no API key in Redis): `autohedge:pacer:<hash>` holds the
 * buckets, `…:unanswered` the reservations sent and not yet answered. Both expire an
 * hour after the last use.
 */
import { createHash } from 'node:crypto';
import { maxImpliedWaitMs, type BucketStore, type Ceilings, type TakeResult } from '../llm/pacer-buckets.js';
import type { QuotaState, RateLimitInfo } from '../llm/rate-limit-headers.js';
import { createPacerRegistry, type PacerRegistry } from '../llm/pacer.js';
import { memoryBucketStore } from '../llm/pacer-buckets.js';
import { redisStepTimeoutMs, withTimeout } from './bounded.js';
import { ensureReachable, type QueueModules, type RedisClient } from './redis.js';

/** Shared Lua: the clock, the state, a bucket's refill, and saving. */
const prelude = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = KEYS[1]
local unanswered = KEYS[2]
local function num(field, default)
  local value = redis.call('HGET', state, field)
  if value == false or value == '' then return default end
  return tonumber(value)
end
local function bucket(prefix, ceiling)
  -- A window saved by an older worker (up to a day) is re-learnt at the cap: no header stalls a fresh worker.
  local b = { cap = num(prefix .. 'cap', ceiling), win = math.min(num(prefix .. 'win', 60000), ${maxImpliedWaitMs}), updated = num('updated', now) }
  b.level = num(prefix .. 'level', b.cap or 0)
  if b.cap ~= nil then
    local elapsed = math.max(0, now - b.updated)
    b.level = math.min(b.cap, b.level + elapsed * b.cap / b.win)
  end
  return b
end
local function save(prefix, b)
  if b.cap ~= nil then
    redis.call('HSET', state, prefix .. 'cap', tostring(b.cap), prefix .. 'win', tostring(b.win), prefix .. 'level', tostring(b.level))
  end
end
local function touch()
  redis.call('HSET', state, 'updated', tostring(now))
  redis.call('PEXPIRE', state, 3600000)
  redis.call('PEXPIRE', unanswered, 3600000)
end
local function opt(value) if value == '' then return nil end return tonumber(value) end
`;

/** ARGV: tokens, requests ceiling, tokens ceiling. Returns {1, ticket} or {0, waitMs}. */
const takeScript = `${prelude}
local amount = tonumber(ARGV[1])
local r = bucket('r', opt(ARGV[2]))
local k = bucket('t', opt(ARGV[3]))
local function waitFor(b, need)
  if b.cap == nil then return 0 end
  need = math.min(need, b.cap)
  if b.level >= need then return 0 end
  return math.ceil((need - b.level) * b.win / b.cap)
end
local wait = math.max(num('paused', 0) - now, waitFor(r, 1), waitFor(k, amount))
if wait > 0 then
  save('r', r) save('t', k) touch()
  return {0, wait}
end
if r.cap ~= nil then r.level = r.level - 1 end
if k.cap ~= nil then k.level = k.level - amount end
save('r', r) save('t', k)
local ticket = redis.call('HINCRBY', state, 'tickets', 1)
redis.call('ZADD', unanswered, ticket, ticket .. ':' .. amount .. ':' .. now)
touch()
return {1, ticket}
`;

/**
 * ARGV: ticket, then for requests and tokens: limit, remaining, resetMs, ceiling ('' when unknown).
 * Unanswered reservations older than ten minutes (a worker that died) are dropped.
 */
const observeScript = `${prelude}
local ticket = tonumber(ARGV[1])
local own = 0
for _, member in ipairs(redis.call('ZRANGEBYSCORE', unanswered, ticket, ticket)) do
  local _, _, amount = string.find(member, '^%d+:([%d.]+):%d+$')
  if amount ~= nil then own = tonumber(amount) end
end
redis.call('ZREMRANGEBYSCORE', unanswered, ticket, ticket)
local afterCount, afterTokens = 0, 0
for _, member in ipairs(redis.call('ZRANGEBYSCORE', unanswered, '(' .. ticket, '+inf')) do
  local _, _, amount, at = string.find(member, '^%d+:([%d.]+):(%d+)$')
  if at ~= nil and tonumber(at) < now - 600000 then
    redis.call('ZREM', unanswered, member)
  elseif amount ~= nil then
    afterCount = afterCount + 1
    afterTokens = afterTokens + tonumber(amount)
  end
end
local function learn(prefix, b, limit, remaining, reset, ceiling, reserved, ownAmount)
  -- A limit below the request just answered cannot be true: it teaches nothing.
  if limit ~= nil and limit < ownAmount then save(prefix, b) return end
  if limit ~= nil then
    b.cap = math.min(limit, ceiling or limit)
    local used = limit - (remaining or limit)
    if reset ~= nil and reset > 0 and used >= limit / 100 then
      b.win = math.min(${maxImpliedWaitMs}, math.max(100, reset * limit / used))
    elseif used < limit / 100 then
      b.win = 60000
    end
  end
  if remaining ~= nil and b.cap ~= nil then b.level = math.min(b.cap, remaining - reserved) end
  save(prefix, b)
end
local r = bucket('r', opt(ARGV[5]))
local k = bucket('t', opt(ARGV[9]))
learn('r', r, opt(ARGV[2]), opt(ARGV[3]), opt(ARGV[4]), opt(ARGV[5]), afterCount, 1)
learn('t', k, opt(ARGV[6]), opt(ARGV[7]), opt(ARGV[8]), opt(ARGV[9]), afterTokens, own)
touch()
return { tostring(r.cap or ''), tostring(r.win), tostring(k.cap or ''), tostring(k.win) }
`;

/** ARGV: ms. */
const pauseScript = `${prelude}
local r = bucket('r', nil)
local k = bucket('t', nil)
save('r', r) save('t', k)
redis.call('HSET', state, 'paused', tostring(math.max(num('paused', 0), now + tonumber(ARGV[1]))))
touch()
return 1
`;

/** ARGV: ticket. */
const releaseScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], ARGV[1], ARGV[1])
return 1
`;

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

/** A bucket's capacity and window, as the observe script returns them, per minute. */
function perMinute(name: string, capacity: string, windowMs: string): Record<string, number> {
  const cap = Number(capacity);
  const window = Number(windowMs);
  return capacity !== '' && cap > 0 && window > 0 ? { [name]: (cap * 60_000) / window } : {};
}

/** The buckets for one pacer key, kept in Redis for every worker that uses the same key. */
export function redisBucketStore(client: RedisClient, pacerKey: string, ceilings: Ceilings = {}): BucketStore {
  const hash = createHash('sha256').update(pacerKey).digest('hex').slice(0, 24);
  const keys = [`autohedge:pacer:${hash}`, `autohedge:pacer:${hash}:unanswered`] as const;
  const run = (script: string, ...args: string[]) => client.eval(script, 2, ...keys, ...args) as Promise<unknown>;
  const quotaArgs = (quota: QuotaState, ceiling: number | undefined) => [
    text(quota.limit),
    text(quota.remaining),
    text(quota.resetMs),
    text(ceiling),
  ];
  let known: { requestsPerMinute?: number; tokensPerMinute?: number } = {
    ...(ceilings.requestsPerMinute !== undefined ? { requestsPerMinute: ceilings.requestsPerMinute } : {}),
    ...(ceilings.tokensPerMinute !== undefined ? { tokensPerMinute: ceilings.tokensPerMinute } : {}),
  };
  return {
    async take(tokens): Promise<TakeResult> {
      const [granted, value] = (await run(
        takeScript,
        String(tokens),
        text(ceilings.requestsPerMinute),
        text(ceilings.tokensPerMinute),
      )) as [number, number];
      return granted === 1 ? { granted: true, ticket: value } : { granted: false, waitMs: value };
    },
    async observe(ticket, info: RateLimitInfo) {
      const learnt = (await run(
        observeScript,
        String(ticket),
        ...quotaArgs(info.requests, ceilings.requestsPerMinute),
        ...quotaArgs(info.tokens, ceilings.tokensPerMinute),
      )) as [string, string, string, string];
      known = {
        ...perMinute('requestsPerMinute', learnt[0], learnt[1]),
        ...perMinute('tokensPerMinute', learnt[2], learnt[3]),
      };
    },
    async release(ticket) {
      await run(releaseScript, String(ticket));
    },
    async pauseFor(ms) {
      await run(pauseScript, String(Math.max(0, Math.round(ms))));
    },
    // As last learnt by this worker: a report at shutdown must not wait on a Redis that went away.
    async limits() {
      return known;
    },
  };
}

/**
 * Pacers whose buckets live in Redis: what `autohedge worker` uses, so every worker on
 * the same Redis (and the same base URL, key and model) draws on one quota. `close()`
 * ends the connection it opened.
 */
export async function sharedPacers(
  modules: QueueModules,
  url: string,
  ceilings: Ceilings = {},
): Promise<{ pacers: PacerRegistry; close(): void }> {
  const client = modules.connect(url);
  await ensureReachable(client, url);
  // A lost Redis is reported by the worker; this client's own reconnection errors stay quiet.
  client.on('error', () => undefined);
  return {
    pacers: createPacerRegistry({
      ceilings,
      makeStore: (key) =>
        withLocalFallback(redisBucketStore(client, key, ceilings), memoryBucketStore(ceilings, Date.now)),
    }),
    close: () => client.disconnect(),
  };
}

/** How long a pacer step may wait on Redis before this worker paces on its own. */
export const redisPacerTimeoutMs = redisStepTimeoutMs;
/** After Redis failed a step, how long this worker paces locally before it asks Redis again. */
const localSpellMs = 30_000;

/**
 * A Redis bucket store that never holds a run: a step Redis does not answer in time (it
 * stopped, the network went) is taken from this worker's own buckets instead, for a while,
 * and the run goes on paced locally — the quota is then this worker's alone to respect.
 * Tickets of the local store are negative, so each answer is observed by the store that
 * admitted its request.
 */
export function withLocalFallback(
  redis: BucketStore,
  local: BucketStore,
  timeoutMs = redisPacerTimeoutMs,
  now: () => number = Date.now,
): BucketStore {
  let localUntil = 0;
  const viaRedis = async <T>(step: () => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    if (now() < localUntil) return fallback();
    try {
      return await withTimeout(step(), timeoutMs);
    } catch {
      localUntil = now() + localSpellMs;
      return fallback();
    }
  };
  const localTake = async (tokens: number): Promise<TakeResult> => {
    const taken = await local.take(tokens);
    return taken.granted ? { granted: true, ticket: -taken.ticket } : taken;
  };
  const byTicket = <T>(ticket: number, step: (store: BucketStore, own: number) => Promise<T>, empty: T) =>
    ticket < 0
      ? step(local, -ticket)
      : viaRedis(
          () => step(redis, ticket),
          async () => empty,
        );
  return {
    take: (tokens) =>
      viaRedis(
        () => redis.take(tokens),
        () => localTake(tokens),
      ),
    observe: (ticket, info) => byTicket(ticket, (store, own) => store.observe(own, info), undefined),
    release: (ticket) => byTicket(ticket, (store, own) => store.release(own), undefined),
    pauseFor: async (ms) => {
      await local.pauseFor(ms);
      await viaRedis(
        () => redis.pauseFor(ms),
        async () => undefined,
      );
    },
    limits: () => (now() < localUntil ? local.limits() : redis.limits()),
  };
}
