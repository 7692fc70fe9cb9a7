import type { LedgerRecord } from '../record.js';
import type { TrustedRoot } from './roots.js';
import { anchorBytesSchema, type AnchorItem } from './store.js';
import { checkTimeStamp } from './tsa-token.js';

/**
 * The anchors of a chain, checked: each token stamps the SHA-256 of its bytes, those bytes
 * name a seq and hash the chain really has, and the TSA's signature and chain are valid.
 * Each record is anchored by the earliest valid anchor at or after it; a record whose
 * recordedAt is later than that anchor's genTime had a clock that lied.
 */

export interface AnchorVerdict {
  seq: number;
  tsa: string;
  genTime: string | null;
  ok: boolean;
  reason?: string;
}

export interface AnchoredBy {
  seq: number;
  genTime: string;
  tsa: string;
}

export interface AnchorsCheck {
  anchors: AnchorVerdict[];
  /** By record seq: the earliest valid anchor covering it. */
  anchoredBy: Map<number, AnchoredBy>;
  /** Records whose recordedAt is later than an anchor covering them. */
  clockLied: Array<{ seq: number; recordedAt: string; genTime: string }>;
}

/** TSA clocks are accurate to a second or so, ours may be a little ahead: beyond this it is a lie. */
const clockTolerance = 60_000;

function boundTo(item: AnchorItem, records: readonly LedgerRecord[]): string | null {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(item.bytes).toString('utf8'));
  } catch {
    return item.bytes.length === 0 ? `${item.seq}.json is missing` : `${item.seq}.json is not JSON`;
  }
  const parsed = anchorBytesSchema.safeParse(raw);
  if (!parsed.success) return `${item.seq}.json is not an anchor of this version`;
  if (parsed.data.seq !== item.seq) return `${item.seq}.json names seq ${parsed.data.seq}`;
  const record = records[item.seq];
  if (!record) return `the chain has no record ${item.seq} (a token over another ledger?)`;
  if (record.hash !== parsed.data.hash)
    return `the token is over head ${parsed.data.hash.slice(0, 16)}…, not this chain's record ${item.seq} (a foreign or rewritten head)`;
  return null;
}

export async function checkAnchors(
  items: readonly AnchorItem[],
  records: readonly LedgerRecord[],
  roots: readonly TrustedRoot[],
): Promise<AnchorsCheck> {
  const anchors: AnchorVerdict[] = [];
  for (const item of items) {
    const foreign = boundTo(item, records);
    if (foreign) {
      anchors.push({ seq: item.seq, tsa: item.tsa, genTime: null, ok: false, reason: foreign });
      continue;
    }
    const token = await checkTimeStamp(
      item.token,
      item.bytes,
      roots.map((root) => root.der),
    );
    anchors.push({
      seq: item.seq,
      tsa: item.tsa,
      genTime: token.genTime,
      ok: token.ok,
      ...(token.reason ? { reason: token.reason } : {}),
    });
  }
  const anchoredBy = coverage(anchors, records.length);
  return { anchors, anchoredBy, clockLied: liars(records, anchoredBy) };
}

/** The earliest valid anchor at or after each seq (a suffix minimum over genTime). */
function coverage(anchors: readonly AnchorVerdict[], count: number): Map<number, AnchoredBy> {
  const bestAt = new Map<number, AnchoredBy>();
  for (const anchor of anchors) {
    if (!anchor.ok || anchor.genTime === null || anchor.seq >= count) continue;
    const known = bestAt.get(anchor.seq);
    if (!known || anchor.genTime < known.genTime)
      bestAt.set(anchor.seq, { seq: anchor.seq, genTime: anchor.genTime, tsa: anchor.tsa });
  }
  const anchoredBy = new Map<number, AnchoredBy>();
  let best: AnchoredBy | null = null;
  for (let seq = count - 1; seq >= 0; seq -= 1) {
    const here = bestAt.get(seq);
    if (here && (!best || here.genTime < best.genTime)) best = here;
    if (best) anchoredBy.set(seq, best);
  }
  return anchoredBy;
}

function liars(records: readonly LedgerRecord[], anchoredBy: ReadonlyMap<number, AnchoredBy>) {
  return records.flatMap((record) => {
    const anchor = anchoredBy.get(record.seq);
    if (!anchor || Date.parse(record.recordedAt) <= Date.parse(anchor.genTime) + clockTolerance) return [];
    return [{ seq: record.seq, recordedAt: record.recordedAt, genTime: anchor.genTime }];
  });
}
