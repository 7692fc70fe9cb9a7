import { join } from 'node:path';

/**
 * Where a home keeps its ledger: $AUTOHEDGE_HOME/ledger/ledger.jsonl, and the signing key
 * beside it. Demo runs (synthetic data) keep their own ledger in ledger/demo/, so a demo
 * decision is never mixed into the real record.
 */

export interface LedgerPaths {
  directory: string;
  file: string;
  lock: string;
  privateKey: string;
  publicKey: string;
  /** Which key has signed this ledger, from which seq (key-state.ts). */
  keyState: string;
  /** RFC 3161 anchors of this ledger's heads (anchor/). */
  anchors: string;
}

export const ledgerFileName = 'ledger.jsonl';

export function ledgerPaths(home: string, options: { demo?: boolean } = {}): LedgerPaths {
  const keys = join(home, 'ledger');
  const directory = options.demo ? join(keys, 'demo') : keys;
  return {
    directory,
    file: join(directory, ledgerFileName),
    lock: join(directory, `${ledgerFileName}.lock`),
    privateKey: join(keys, 'signing-key.pem'),
    publicKey: join(keys, 'signing-key.pub.pem'),
    keyState: join(directory, 'signing-key.state.json'),
    anchors: join(directory, 'anchors'),
  };
}

/** The file a torn tail is moved to: ledger.torn-<UTC time to the millisecond>. */
export function tornFileName(at: Date): string {
  return `ledger.torn-${at.toISOString().replace(/[-:]/g, '').replace('.', '-')}`;
}
