import type { RecordContent } from './from-result.js';
import { signHash, type SigningKey } from './keys.js';
import { genesisPrev, ledgerFormatVersion, recordHash, type LedgerBody, type LedgerRecord } from './record.js';

/** What a new record needs to know of the last one. */
export interface ChainTip {
  seq: number;
  hash: string;
  /** Its time: a record after it is never earlier (verify fails a time-regression). */
  recordedAt: string;
}

/** The next record after `tip` (null: the first), hashed, and signed when a key is given. Pure. */
export function sealRecord(content: RecordContent, tip: ChainTip | null, key: SigningKey | null): LedgerRecord {
  const body: LedgerBody = {
    v: ledgerFormatVersion,
    seq: tip === null ? 0 : tip.seq + 1,
    prev: tip === null ? genesisPrev : tip.hash,
    ...content,
    ...(key ? { keyId: key.keyId } : {}),
  };
  const hash = recordHash(body);
  return { ...body, hash, ...(key ? { sig: signHash(hash, key) } : {}) };
}
