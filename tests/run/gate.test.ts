import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/errors.js';
import { AnalysisGate, type Admission } from '../../src/run/gate.js';

const flags = { budget: '--max-cost', concurrency: '--concurrency' };
const gateOf = (budgetUsd: number, concurrency = 2, waiting = concurrency) =>
  new AnalysisGate({ budgetUsd, concurrency, waiting, flags });

/** Whether a promise has settled by the end of this turn of the event loop. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('AnalysisGate', () => {
  it('admits up to the concurrency at once, queues as many more in order, and refuses the next at once', async () => {
    const gate = gateOf(5);
    const first = await gate.admit(1);
    const second = await gate.admit(1);
    const third = gate.admit(1);
    const fourth = gate.admit(1);
    await expect(gate.admit(1)).rejects.toThrow(
      '2 analyses are running and 2 waiting (--concurrency 2, at most 2 waiting): this call was refused',
    );
    expect(await settledYet(third)).toBe(false);
    first.settle(0.2, false);
    expect((await third).capUsd).toBe(1);
    expect(await settledYet(fourth)).toBe(false);
    second.settle(0.2, false);
    expect((await fourth).capUsd).toBe(1);
  });

  it('grants what is left only when nothing else runs, and is spent once that could not pay for a call', async () => {
    const gate = gateOf(1);
    const first = await gate.admit(0.6);
    // 0.4 is left while the first holds 0.6: the second waits rather than run on a scrap.
    const second = gate.admit(0.6);
    expect(await settledYet(second)).toBe(false);
    first.settle(0.5, false);
    const granted = await second;
    expect(granted.capUsd).toBeCloseTo(0.5, 12);
    const waiting = gate.admit(0.6);
    granted.settle(0.45, true);
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as Error).message).toBe(
      "this server's --max-cost $1.00 is spent ($0.9500 over 2 analyses; what was left could not pay for a run's next call): no further analysis is made; restart it with a higher --max-cost to analyse more",
    );
    await expect(gate.admit(0.01)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('a call whose own cap stopped it does not spend the server out; a whole budget spent does', async () => {
    const gate = gateOf(1, 1);
    (await gate.admit(0.5)).settle(0.5, true);
    const next = await gate.admit(0.5);
    expect(next.capUsd).toBe(0.5);
    next.settle(0.5, false);
    await expect(gate.admit(0.1)).rejects.toThrow(/is spent \(\$1\.0000 over 2 analyses; nothing is left\)/);
  });

  it('says why a call waits: every slot taken, or too little left beside the caps in flight', async () => {
    const slots = gateOf(5, 1);
    const queued: unknown[] = [];
    await slots.admit(1);
    void slots.admit(1, { onQueued: (state) => queued.push(state) });
    const budget = gateOf(1, 3, 2);
    await budget.admit(0.8);
    void budget.admit(0.5, { onQueued: (state) => queued.push(state) });
    void budget.admit(0.1, { onQueued: (state) => queued.push(state) });
    expect(queued).toEqual([
      { running: 1, ahead: 0, waitingFor: 'slot' },
      { running: 1, ahead: 0, waitingFor: 'budget' },
      { running: 1, ahead: 1, waitingFor: 'turn' },
    ]);
  });

  it('takes an aborted waiter out of the queue', async () => {
    const gate = gateOf(5, 1, 1);
    const running = await gate.admit(1);
    const controller = new AbortController();
    const waiting = gate.admit(1, { signal: controller.signal });
    controller.abort(new Error('cancelled by the client'));
    await expect(waiting).rejects.toThrow('cancelled by the client');
    const next = gate.admit(1);
    running.settle(0, false);
    expect((await next).capUsd).toBe(1);
  });

  it('counts a cost that is not a finite number as the whole cap, and a run past its cap at what it spent', async () => {
    const gate = gateOf(2, 1);
    (await gate.admit(1)).settle(Number.NaN, false);
    expect(gate.spentUsd).toBe(1);
    // A call's real cost can pass its estimate: the server's tally keeps the truth, and is spent.
    (await gate.admit(0.5)).settle(1.2, false);
    expect(gate.spentUsd).toBeCloseTo(2.2, 12);
    await expect(gate.admit(0.1)).rejects.toThrow(/is spent \(\$2\.2000 over 2 analyses; nothing is left\)/);
  });

  it('lets the next call in when the one in front of the queue is cancelled', async () => {
    const gate = gateOf(1, 2);
    const running = await gate.admit(0.8);
    const controller = new AbortController();
    const front = gate.admit(0.5, { signal: controller.signal });
    const behind = gate.admit(0.1);
    controller.abort(new Error('cancelled by the client'));
    await expect(front).rejects.toThrow('cancelled by the client');
    // Admitted while the first still runs: 0.1 fits beside its 0.8.
    expect((await behind).capUsd).toBe(0.1);
    running.settle(0, false);
  });

  it('never has more running than the bound nor more held and spent than the budget, whatever arrives', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('admit' as const), want: fc.double({ min: 0.01, max: 2, noNaN: true }) }),
      fc.record({
        kind: fc.constant('settle' as const),
        pick: fc.nat(),
        share: fc.double({ min: 0, max: 1, noNaN: true }),
        stopped: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0.5, max: 5, noNaN: true }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(step, { maxLength: 60 }),
        async (budget, concurrency, steps) => {
          const gate = gateOf(budget, concurrency);
          const running: Admission[] = [];
          const pending: Array<Promise<void>> = [];
          for (const next of steps) {
            if (next.kind === 'admit') {
              pending.push(
                gate.admit(next.want).then(
                  (admission) => {
                    expect(admission.capUsd).toBeLessThanOrEqual(next.want);
                    expect(admission.capUsd).toBeGreaterThan(0);
                    running.push(admission);
                  },
                  () => {},
                ),
              );
            } else if (running.length > 0) {
              const [admission] = running.splice(next.pick % running.length, 1);
              admission!.settle(admission!.capUsd * next.share, next.stopped);
            }
            await new Promise((resolve) => setImmediate(resolve));
            expect(running.length).toBeLessThanOrEqual(concurrency);
            const held = running.reduce((sum, admission) => sum + admission.capUsd, 0);
            expect(gate.spentUsd + held).toBeLessThanOrEqual(budget + 1e-9);
          }
          // Drain: each settle lets a waiter in, which then settles in turn.
          while (running.length > 0) {
            for (const admission of running.splice(0)) admission.settle(admission.capUsd, false);
            await new Promise((resolve) => setImmediate(resolve));
          }
          await Promise.all(pending);
          expect(gate.spentUsd).toBeLessThanOrEqual(budget + 1e-9);
        },
      ),
      { numRuns: 200 },
    );
  });
});
