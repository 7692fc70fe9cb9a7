import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../../errors.js';
import { networkReason } from '../../market/http.js';
import { verifyHomeLedger } from '../check.js';
import { LedgerError } from '../errors.js';
import type { LedgerPaths } from '../paths.js';
import { trustedRoots, tsaName, type TrustedRoot } from './roots.js';
import { anchorBytes, bytesFile, readAnchorItems, saveBytes, saveRoots, saveToken } from './store.js';
import { checkTimeStamp, newNonce, timeStampRequest } from './tsa-token.js';

/**
 * `ledger anchor`: the head of a chain that verifies, time-stamped by each TSA. The bytes
 * (canonical JSON of seq, hash, keyId, the time asked) are hashed with SHA-256 and sent as
 * a TimeStampReq with a nonce; each reply is checked (status, imprint, nonce, signature,
 * chain to a trusted root) before it is kept. A TSA that fails is reported, not fatal.
 */

export interface AnchorRequest {
  paths: LedgerPaths;
  urls: readonly string[];
  /** Roots added with --tsa-cert (also kept in the home). */
  extraRoots?: readonly TrustedRoot[];
  now?: () => Date;
  /** Per TSA. */
  timeoutMs?: number;
}

export interface AnchorOutcome {
  seq: number;
  hash: string;
  /** The head was already stamped by every TSA asked. */
  already: boolean;
  /** The TSAs asked that had stamped this head before (not asked again). */
  stampedBefore: string[];
  stamped: Array<{ tsa: string; genTime: string }>;
  failed: Array<{ tsa: string; url: string; message: string }>;
}

async function post(url: string, body: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    // undici says only "fetch failed": the socket's reason is in its cause.
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new Error(timedOut ? `no answer within ${timeoutMs} ms` : `could not connect (${networkReason(error)})`, {
      cause: error,
    });
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const reply = new Uint8Array(await response.arrayBuffer());
  if (reply.length > 64 * 1024) throw new Error('the reply is too large to be a time-stamp');
  return reply;
}

export async function anchorHead(request: AnchorRequest): Promise<AnchorOutcome> {
  const { paths } = request;
  const report = await verifyHomeLedger(paths);
  if (report.firstBad)
    throw new LedgerError(
      `the ledger is broken at seq ${report.firstBad.seq} (${report.firstBad.reason}); nothing anchored`,
      'invalid',
    );
  const head = report.verified[report.verified.length - 1];
  if (!head) throw new LedgerError('the ledger has no records yet: there is no head to anchor', 'missing');
  const roots = await trustedRoots(paths.anchors, request.extraRoots ?? []);
  await saveRoots(paths.anchors, request.extraRoots ?? []);
  const done = new Set(
    (await readAnchorItems(paths.anchors)).filter((item) => item.seq === head.seq).map((item) => item.tsa),
  );
  const wanted = request.urls.filter((url) => !done.has(tsaName(url)));
  const outcome: AnchorOutcome = {
    seq: head.seq,
    hash: head.hash,
    already: wanted.length === 0,
    stampedBefore: request.urls.map(tsaName).filter((tsa) => done.has(tsa)),
    stamped: [],
    failed: [],
  };
  if (wanted.length === 0) return outcome;
  // The same head keeps the bytes it was first stamped over: one <seq>.json for every TSA.
  const existing = await readFile(bytesFile(paths.anchors, head.seq), 'utf8').catch(() => null);
  const bytes =
    existing ??
    anchorBytes({
      seq: head.seq,
      hash: head.hash,
      keyId: head.keyId ?? null,
      askedAt: (request.now?.() ?? new Date()).toISOString(),
    });
  if (existing === null) await saveBytes(paths.anchors, head.seq, bytes);
  const digest = createHash('sha256').update(bytes).digest();
  await Promise.all(
    wanted.map(async (url) => {
      const tsa = tsaName(url);
      try {
        const nonce = newNonce();
        const reply = await post(url, await timeStampRequest(digest, nonce), request.timeoutMs ?? 20_000);
        const check = await checkTimeStamp(
          reply,
          Buffer.from(bytes),
          roots.map((root) => root.der),
          nonce,
        );
        if (!check.ok || check.genTime === null) throw new Error(check.reason ?? 'the token does not verify');
        await saveToken(paths.anchors, { seq: head.seq, hash: head.hash, tsa, url, genTime: check.genTime }, reply);
        outcome.stamped.push({ tsa, genTime: check.genTime });
      } catch (error) {
        outcome.failed.push({ tsa, url, message: errorMessage(error) });
      }
    }),
  );
  return outcome;
}
