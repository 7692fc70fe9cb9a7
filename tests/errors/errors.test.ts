import { describe, expect, it } from 'vitest';
import { CassetteError, errorCode, findCause } from '../../src/errors.js';

/** The one walk along an error's causes that every area uses to see through SDK wrapping. */

function withCode(message: string, code: unknown, cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
}

describe('findCause', () => {
  it('finds the error itself or one of its causes, nearest first', () => {
    const inner = new CassetteError('no recorded response');
    const middle = new TypeError('fetch failed', { cause: inner });
    const outer = new Error('Connection error.', { cause: middle });
    expect(findCause(outer, (cause) => cause instanceof CassetteError)).toBe(inner);
    expect(findCause(outer, (cause) => cause instanceof Error)).toBe(outer);
    expect(findCause(outer, (cause) => cause instanceof TypeError)).toBe(middle);
    expect(findCause(outer, (cause) => cause instanceof RangeError)).toBeUndefined();
  });

  it('narrows to the type a type guard names', () => {
    const inner = new CassetteError('corrupt');
    const found: CassetteError | undefined = findCause(
      new Error('wrapped', { cause: inner }),
      (cause): cause is CassetteError => cause instanceof CassetteError,
    );
    expect(found?.message).toBe('corrupt');
  });

  it('looks into the members of an AggregateError (a connection tried on several addresses)', () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED');
    const error = new TypeError('fetch failed', { cause: new AggregateError([new Error('ipv6 down'), refused]) });
    expect(findCause(error, (cause) => (cause as { code?: unknown }).code === 'ECONNREFUSED')).toBe(refused);
  });

  it('stops after maxDepth levels, and on a cyclic chain', () => {
    const chain = Array.from({ length: 10 }, (_, index) => new Error(`level ${index}`));
    chain.forEach((error, index) => {
      if (index > 0) (chain[index - 1] as { cause?: unknown }).cause = error;
    });
    const isLevel = (level: number) => (cause: unknown) => (cause as Error).message === `level ${level}`;
    expect(findCause(chain[0], isLevel(7))).toBe(chain[7]);
    expect(findCause(chain[0], isLevel(8))).toBeUndefined();
    expect(findCause(chain[0], isLevel(2), 2)).toBeUndefined();
    expect(findCause(chain[0], isLevel(1), 2)).toBe(chain[1]);

    const cyclic = new Error('a');
    cyclic.cause = new Error('b', { cause: cyclic });
    expect(findCause(cyclic, () => false)).toBeUndefined();
  });

  it('ignores what is not an object: strings, null, undefined', () => {
    expect(findCause('boom', () => true)).toBeUndefined();
    expect(findCause(null, () => true)).toBeUndefined();
    expect(findCause(undefined, () => true)).toBeUndefined();
  });
});

describe('errorCode', () => {
  it('is the Node-style code of the error, else of its nearest cause that has one', () => {
    expect(errorCode(withCode("ENOENT: no such file or directory, open 'x'", 'ENOENT'))).toBe('ENOENT');
    const socket = withCode('other side closed', 'UND_ERR_SOCKET');
    expect(errorCode(new Error('Connection error.', { cause: new TypeError('terminated', { cause: socket }) }))).toBe(
      'UND_ERR_SOCKET',
    );
  });

  it("skips an API's own codes (lowercase, like OpenAI's model_not_found) and codes that are not strings", () => {
    const reset = withCode('read ECONNRESET', 'ECONNRESET');
    expect(errorCode(withCode('404 model not found', 'model_not_found', reset))).toBe('ECONNRESET');
    expect(errorCode(withCode('numeric', 42))).toBeUndefined();
    expect(errorCode(new Error('plain'))).toBeUndefined();
    expect(errorCode('ENOENT')).toBeUndefined();
  });
});
