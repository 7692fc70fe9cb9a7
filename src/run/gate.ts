import { AutohedgeError, BudgetExceededError, InterruptedError } from '../errors.js';

/**
 * The bounds of a long-lived shell that runs analyses on request (`autohedge mcp`): one
 * spend cap over its whole lifetime and a number of analyses at once. A client that loops
 * can neither spend past the cap nor run more analyses in parallel than the bound.
 *
 * Spend is reserved up front: a call is admitted with a cap of its own (what it asked for,
 * or what is left when nothing else is running), and that cap is held against the budget
 * until the run settles with what it actually cost. So however many calls arrive together,
 * the caps in flight plus the spend so far never pass the budget. A call waits its turn
 * while every slot is taken, or while what is left after the caps in flight would not cover
 * its whole cap (the runs in flight usually cost less than they hold); at most `waiting`
 * calls wait, in order, and one more is refused at once.
 */
export interface GateLimits {
  /** The lifetime budget, USD. */
  budgetUsd: number;
  /** Analyses at once. */
  concurrency: number;
  /** Calls that may wait for a slot; beyond them a call is refused. */
  waiting: number;
  /** The flags that set these, for the messages: how to raise a bound. */
  flags: { budget: string; concurrency: string };
}

/** One admitted analysis: its own cap, and how it reports what it spent. */
export interface Admission {
  capUsd: number;
  /**
   * The run is over: `spentUsd` is what it cost; `capStopped`: its cap refused a call. When
   * the cap was what was left of the budget, that call could not be paid for: the budget
   * is spent, and every later call is refused.
   */
  settle(spentUsd: number, capStopped: boolean): void;
}

export interface QueuedState {
  running: number;
  ahead: number;
  /**
   * A slot (all are taken), its turn (calls ahead of it are waiting), or the budget (the
   * caps in flight leave too little for this one's).
   */
  waitingFor: 'slot' | 'turn' | 'budget';
}

export interface AdmitOptions {
  /** Aborted: a waiting call leaves the queue. */
  signal?: AbortSignal;
  /** The call was put in the queue, behind `ahead` others, with `running` analyses running. */
  onQueued?: (state: QueuedState) => void;
}

interface Waiter {
  wantUsd: number;
  admit: (admission: Admission) => void;
  refuse: (error: Error) => void;
}

/** Within this of the budget, nothing is left to spend (float sums never land on it exactly). */
const nothingLeftUsd = 1e-9;

export class AnalysisGate {
  private spent = 0;
  private reserved = 0;
  private running = 0;
  private analyses = 0;
  /** Why no further analysis can be paid for, once that is so. */
  private spentOut: string | null = null;
  private readonly queue: Waiter[] = [];

  constructor(private readonly limits: GateLimits) {}

  /** What has been spent so far, USD. */
  get spentUsd(): number {
    return this.spent;
  }

  /**
   * An admission for a call that wants a cap of `wantUsd`: at once, after a wait, or a
   * BudgetExceededError (the budget is spent) / an AutohedgeError (too many waiting).
   */
  admit(wantUsd: number, options: AdmitOptions = {}): Promise<Admission> {
    const { signal } = options;
    if (this.spentOut !== null) return Promise.reject(this.spentError());
    if (this.queue.length === 0 && this.canStart(wantUsd)) return Promise.resolve(this.start(wantUsd));
    if (this.queue.length >= this.limits.waiting) return Promise.reject(this.busyError());
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    options.onQueued?.({
      running: this.running,
      ahead: this.queue.length,
      // With a slot free and nobody ahead, what stops it is the budget the runs in flight hold.
      waitingFor: this.running >= this.limits.concurrency ? 'slot' : this.queue.length > 0 ? 'turn' : 'budget',
    });
    return new Promise<Admission>((resolve, reject) => {
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(abortReason(signal!));
        // The call that left may have been the one in front: the next may fit now.
        this.pump();
      };
      const waiter: Waiter = {
        wantUsd,
        admit: (admission) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(admission);
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private left(): number {
    return this.limits.budgetUsd - this.spent - this.reserved;
  }

  /** A free slot, and either the whole cap is covered or nothing else holds any of the budget. */
  private canStart(wantUsd: number): boolean {
    if (this.running >= this.limits.concurrency) return false;
    return this.left() >= wantUsd || this.running === 0;
  }

  private start(wantUsd: number): Admission {
    const capUsd = Math.min(wantUsd, this.left());
    this.running += 1;
    this.reserved += capUsd;
    let settled = false;
    return {
      capUsd,
      settle: (spentUsd, capStopped) => {
        if (settled) return;
        settled = true;
        this.running -= 1;
        this.reserved -= capUsd;
        this.analyses += 1;
        // A cost that is not a finite, non-negative number counts as the whole cap. A run can
        // end a little past its cap (a call's real cost above its estimate): that is spent too.
        this.spent += Number.isFinite(spentUsd) && spentUsd >= 0 ? spentUsd : capUsd;
        if (capStopped && capUsd < wantUsd) this.spentOut = "what was left could not pay for a run's next call";
        this.pump();
      },
    };
  }

  private pump(): void {
    if (this.spentOut === null && this.limits.budgetUsd - this.spent <= nothingLeftUsd)
      this.spentOut = 'nothing is left';
    if (this.spentOut !== null) {
      for (const waiter of this.queue.splice(0)) waiter.refuse(this.spentError());
      return;
    }
    while (this.queue.length > 0 && this.canStart(this.queue[0]!.wantUsd)) {
      const waiter = this.queue.shift()!;
      waiter.admit(this.start(waiter.wantUsd));
    }
  }

  private spentError(): BudgetExceededError {
    const { budgetUsd, flags } = this.limits;
    return new BudgetExceededError(
      `this server's ${flags.budget} $${budgetUsd.toFixed(2)} is spent ($${this.spent.toFixed(4)} over ${this.analyses} analyses; ${this.spentOut}): no further analysis is made; restart it with a higher ${flags.budget} to analyse more`,
    );
  }

  private busyError(): AutohedgeError {
    const { concurrency, waiting, flags } = this.limits;
    return new AutohedgeError(
      `${this.running} analyses are running and ${this.queue.length} waiting (${flags.concurrency} ${concurrency}, at most ${waiting} waiting): this call was refused; try again when one finishes, or restart the server with a higher ${flags.concurrency} (or ${flags.budget}, if they wait for budget)`,
    );
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}
