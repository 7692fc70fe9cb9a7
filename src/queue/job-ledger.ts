/**
 * What a job has already paid for, kept in Redis across its attempts, so a retry neither
 * spends past the job's --max-cost nor buys again what an earlier attempt bought:
 *
 * - the spend of every attempt so far (`…:spent`), taken off the cap of the next one;
 * - each model answer an attempt received (`…:answers`, keyed by a hash of the request),
 *   handed back to a later attempt that sends the same request — the Director's plan
 *   and the desks that finished before a 429 stopped the run — at no cost.
 *
 * Both expire with the job (keepFinishedSeconds).
 */
import { createHash } from 'node:crypto';
import type { ChatModel, ChatRequest, ChatResponse } from '../llm/types.js';
import { sanitizeText } from '../sanitize.js';
import { keepFinishedSeconds } from './jobs.js';
import { redisStepTimeoutMs, withTimeout } from './bounded.js';
import type { RedisClient } from './redis.js';

export interface JobLedger {
  /** USD spent by the job's earlier attempts (priced runs only). */
  spentUsd(): Promise<number>;
  addSpent(usd: number): Promise<void>;
  /** `model`, answering a request an earlier attempt already paid for from the ledger (usage 0: nothing is spent again). */
  remembering(model: ChatModel): ChatModel;
  /** How many answers this attempt took from the ledger. */
  readonly reused: number;
  /** The job is done: its kept answers are no longer needed. */
  forget(): Promise<void>;
}

/** The part of a request that decides its answer (not the signal, which is this attempt's). */
export function requestHash(request: ChatRequest): string {
  const { signal: _signal, ...rest } = request;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

export function jobLedger(client: RedisClient, queueName: string, jobId: string): JobLedger {
  const base = `autohedge:job:${queueName}:${jobId}`;
  const spentKey = `${base}:spent`;
  const answersKey = `${base}:answers`;
  let reused = 0;
  return {
    async spentUsd() {
      const value = Number(await client.get(spentKey));
      return Number.isFinite(value) ? value : 0;
    },
    async addSpent(usd) {
      if (!(usd > 0)) return;
      await withTimeout(
        client.multi().incrbyfloat(spentKey, usd).expire(spentKey, keepFinishedSeconds).exec(),
        redisStepTimeoutMs,
      ).catch(() => undefined);
    },
    remembering(model) {
      return {
        prepare: () => model.prepare?.(),
        ...(model.cacheCapabilities ? { cacheCapabilities: model.cacheCapabilities.bind(model) } : {}),
        async complete(request) {
          const field = requestHash(request);
          // A Redis that stopped costs this attempt its reuse, never its run.
          const stored = await withTimeout(client.hget(answersKey, field), redisStepTimeoutMs).catch(() => null);
          const kept = keptAnswer(stored);
          if (kept) {
            reused += 1;
            return { ...kept, usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 } };
          }
          // A failed call throws through: its typed error reaches the run's failure, where the queue reads its retry-after.
          const response = await model.complete(request);
          await withTimeout(
            client
              .multi()
              .hset(answersKey, field, JSON.stringify(response))
              .expire(answersKey, keepFinishedSeconds)
              .exec(),
            redisStepTimeoutMs,
          ).catch(() => undefined);
          return response;
        },
      };
    },
    get reused() {
      return reused;
    },
    async forget() {
      await client.del(answersKey, spentKey);
    },
  };
}

/**
 * An answer read back from Redis, where anyone with access may have written: only an
 * assistant message whose text is sanitised again, as the model client does on entry.
 */
function keptAnswer(text: string | null): ChatResponse | undefined {
  if (!text) return undefined;
  let parsed: ChatResponse;
  try {
    parsed = JSON.parse(text) as ChatResponse;
  } catch {
    return undefined;
  }
  const message = parsed?.message;
  if (message?.role !== 'assistant' || (message.content !== null && typeof message.content !== 'string'))
    return undefined;
  return {
    ...parsed,
    message: { ...message, content: message.content === null ? null : sanitizeText(message.content) },
  };
}
