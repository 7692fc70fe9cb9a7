// A demo worker runs demo jobs only, and a demo job runs on a demo worker only: neither
// is quietly run on the other's data (src/queue/job-request.ts).
import { describe, expect, it } from 'vitest';
import { requestOnHost } from '../../src/queue/job-request.js';

const demoWorker = { version: 1, cassette: { mode: 'demo' } } as const;
const realWorker = { version: 1 } as const;

describe('demo jobs and demo workers', () => {
  it('a demo worker runs a demo job on the demo cassette', () => {
    expect(requestOnHost({ version: 1, ticker: 'ACME', cassette: { mode: 'demo' } }, demoWorker)).toMatchObject({
      ticker: 'ACME',
      cassette: { mode: 'demo' },
    });
  });
  it('a demo worker refuses a real job, which would otherwise take its cassette', () => {
    expect(() => requestOnHost({ version: 1, ticker: 'ACME' }, demoWorker)).toThrow(
      /this worker replays the demo \(worker --demo\): it runs only jobs queued with `enqueue --demo`/,
    );
  });
  it('a real worker refuses a demo job, naming the worker that runs it', () => {
    expect(() => requestOnHost({ version: 1, ticker: 'ACME', cassette: { mode: 'demo' } }, realWorker)).toThrow(
      /a demo job \(queued with `enqueue --demo`\) runs on a demo worker: `autohedge worker --demo`/,
    );
  });
});
