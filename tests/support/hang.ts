/**
 * Wall-clock bounds in tests say "long before the hang would end", never "fast": a loaded
 * two-core machine can stretch a 200 ms step to seconds, so a bound of 1–3 s flakes. A test
 * guarding against a hang (a server that never answers, a process that ignores a signal, a
 * tool that answers after a minute) asserts the elapsed time is under half that hang, and
 * gives itself a timeout beyond the hang plus its set-up (90 s for `neverEndsMs`, written as a
 * literal where Prettier wants one), so a regression fails on the assertion with the measured
 * time rather than on the test's timeout. How fast is `npm run bench`'s business.
 */

/** What a test treats as "never": a server that does not answer, a process that ignores a signal. */
export const neverEndsMs = 60_000;

/** The bound for something that must end long before a hang of `hangMs` would: half of it. */
export function longBeforeTheHangEnds(hangMs: number): number {
  return hangMs / 2;
}
