import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.js';
import { errorCode, errorMessage } from '../errors.js';
import { LedgerError } from './errors.js';
import type { LedgerPaths } from './paths.js';

/**
 * What a ledger remembers of its key: once a home's key exists (keygen) or has signed
 * (the first signed append), its id and the seq from which every record must be signed.
 * Without it, a chain rewritten with every signature stripped would verify unsigned.
 */

const keyStateSchema = z.strictObject({
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  signedFrom: z.number().int().min(0),
});

export type KeyState = z.infer<typeof keyStateSchema>;

export async function readKeyState(paths: LedgerPaths): Promise<KeyState | null> {
  let text: string;
  try {
    text = await readFile(paths.keyState, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw new LedgerError(`cannot read ${paths.keyState}: ${errorMessage(error)}`, 'io', { cause: error });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = null;
  }
  const parsed = keyStateSchema.safeParse(raw);
  if (!parsed.success) throw new LedgerError(`${paths.keyState} is not a key state this version reads`, 'invalid');
  return parsed.data;
}

/** Written once per key: an existing state for the same key is kept (its seq is the earlier one). */
export async function rememberKey(paths: LedgerPaths, state: KeyState): Promise<void> {
  const known = await readKeyState(paths);
  if (known?.keyId === state.keyId && known.signedFrom <= state.signedFrom) return;
  await writeFileAtomic(paths.keyState, `${JSON.stringify(state)}\n`);
}
