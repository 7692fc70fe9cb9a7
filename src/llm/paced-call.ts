/**
 * One model call under its pacer: wait for the budget, send, and on a 429 wait as long
 * as the server says (capped at maxRateLimitWaitMs) — holding back every other request
 * of the same quota meanwhile — then try again, up to `maxRetries` times. A flex call
 * that times out is tried again the same way, after the pacer's back-off.
 */
import { ModelError } from '../errors.js';
import { rateLimitWait, type Pacer, type PacerClock, type Reservation, systemClock, type WaitNotice } from './pacer.js';
import { reservedTokens } from './token-estimate.js';
import type { ChatRequest, ChatResponse } from './types.js';

export async function pacedCall(
  pacer: Pacer | undefined,
  request: ChatRequest,
  maxRetries: number,
  attempt: (reservation: Reservation | undefined) => Promise<ChatResponse>,
  clock: PacerClock = systemClock,
  onWait?: WaitNotice,
): Promise<ChatResponse> {
  const tokens = reservedTokens(request);
  for (let retry = 0; ; retry += 1) {
    const reservation = pacer ? await acquire(pacer, tokens, request.signal, onWait) : undefined;
    try {
      const response = await attempt(reservation);
      reservation?.finish(response.usage.promptTokens + response.usage.completionTokens);
      return response;
    } catch (error) {
      if (flexTimeout(error, request)) {
        // Flex is slow when its capacity is short: wait the pacer's back-off, then ask again.
        reservation?.cancel();
        if (retry >= maxRetries) throw error;
        await clock.sleep(rateLimitWait({ requests: {}, tokens: {} }, retry + 1), request.signal);
        continue;
      }
      if (!(error instanceof ModelError) || error.kind !== 'rate-limited') {
        reservation?.cancel();
        throw error;
      }
      const info = error.rateLimit ?? { requests: {}, tokens: {} };
      // With a pacer, its pause holds this retry (and every other request) back; without, we sleep here.
      const waitMs = reservation ? reservation.rateLimited(info) : rateLimitWait(info, retry + 1);
      if (retry >= maxRetries) throw error;
      if (!reservation) await clock.sleep(waitMs, request.signal);
    }
  }
}

async function acquire(
  pacer: Pacer,
  tokens: number,
  signal: AbortSignal | undefined,
  onWait: WaitNotice | undefined,
): Promise<Reservation> {
  try {
    return await pacer.acquire(tokens, signal, onWait);
  } catch (error) {
    if (signal?.aborted) throw new ModelError('model call aborted', 'aborted');
    throw error;
  }
}

/** A flex call that timed out (the SDK's deadline, or a 408 from the server). */
function flexTimeout(error: unknown, request: ChatRequest): boolean {
  return (
    request.serviceTier === 'flex' && error instanceof ModelError && (error.kind === 'timeout' || error.status === 408)
  );
}
