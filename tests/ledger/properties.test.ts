import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/ledger/verify.js';
import { chain, linesOf } from './support.js';

/** Properties of the chain check: whatever is edited, removed or moved, verify names the first record it touched. */

const records = chain(8);
const lines = linesOf(records);

/** A JSON value different from `value`, of a kind a forger might write. */
const otherValue = (value: unknown) =>
  fc
    .oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    )
    .filter((candidate) => JSON.stringify(candidate) !== JSON.stringify(value));

describe('verifyChain properties', () => {
  it('changing any one field of any record fails at that record', () => {
    const fields = Object.keys(records[0]!).filter((field) => field !== 'sig' && field !== 'keyId');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: records.length - 1 }),
        fc.constantFrom(...fields),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (index, field, seed) => {
          const record = JSON.parse(lines[index]!) as Record<string, unknown>;
          const replacement = fc.sample(otherValue(record[field]), { numRuns: 1, seed })[0];
          record[field] = replacement;
          const tampered = lines.map((line, at) => (at === index ? JSON.stringify(record) : line));
          const bad = verifyChain({ lines: tampered, torn: null }).firstBad;
          expect(bad?.seq).toBe(index);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('removing or moving any record fails at the first position it changed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: lines.length - 1 }),
        fc.integer({ min: 0, max: lines.length - 1 }),
        (from, to) => {
          const moved = [...lines];
          const [line] = moved.splice(from, 1);
          if (from !== to) moved.splice(to, 0, line!);
          const bad = verifyChain({ lines: moved, torn: null }).firstBad;
          if (from === to) {
            // Removed: fine only when it was the last (a truncated tail: --head's job).
            if (from === lines.length - 1) expect(bad).toBeNull();
            else expect(bad).toMatchObject({ seq: from });
          } else expect(bad).toMatchObject({ seq: Math.min(from, to) });
        },
      ),
    );
  });
});
