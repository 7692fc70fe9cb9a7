import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

describe('progress on a terminal', () => {
  it('leaves failures and warnings on screen when the spinner stops', async () => {
    let written = '';
    const progress = await createProgress({
      write: (text) => void (written += text),
      live: true,
      quiet: false,
      color: false,
      stream: new PassThrough(),
    });
    const sink = progress.sink('ACME');
    sink({ type: 'agent-start', agent: 'quant', model: 'gpt-4.1', at: 0 });
    sink({ type: 'agent-start', agent: 'risk', model: 'gpt-4.1', at: 0 });
    sink({ type: 'agent-end', agent: 'quant', status: 'ok', durationMs: 1_200, error: null });
    sink({ type: 'agent-end', agent: 'risk', status: 'failed', durationMs: 900, error: 'OpenAI service error (503)' });
    sink({ type: 'warning', message: 'risk failed: OpenAI service error (503)' });
    sink({ type: 'warning', message: 'market data: 1 session(s) without a price were skipped' });
    expect(written).toBe('');
    progress.stop();
    expect(written).toBe(
      '[ACME] risk: failed — OpenAI service error (503)\n[ACME] warning: market data: 1 session(s) without a price were skipped\n',
    );
  });

  it('a finished ticker leaves the live view, its failures still printed at the end, once', async () => {
    let written = '';
    const progress = await createProgress({
      write: (text) => void (written += text),
      live: true,
      quiet: false,
      color: false,
      stream: new PassThrough(),
    });
    for (const ticker of ['AAA', 'BBB'])
      progress.sink(ticker)({ type: 'agent-start', agent: 'quant', model: 'gpt-4.1', at: 0 });
    progress.sink('AAA')({
      type: 'agent-end',
      agent: 'quant',
      status: 'failed',
      durationMs: 900,
      error: 'OpenAI service error (503)',
    });
    progress.done('AAA');
    progress.sink('BBB')({ type: 'agent-end', agent: 'quant', status: 'ok', durationMs: 900, error: null });
    progress.sink('AAA')({ type: 'warning', message: 'quant failed: OpenAI service error (503)' });
    progress.stop();
    expect(written).toBe('[AAA] quant: failed — OpenAI service error (503)\n');
  });

  it('prints nothing at all with --quiet', async () => {
    let written = '';
    const progress = await createProgress({
      write: (text) => void (written += text),
      live: true,
      quiet: true,
      color: false,
    });
    progress.sink('ACME')({ type: 'warning', message: 'x' });
    progress.stop();
    expect(written).toBe('');
  });

  it('off a terminal, a desk failure is one line: its "failed:" warning is not printed again', async () => {
    let written = '';
    const progress = await createProgress({
      write: (text) => {
        written += text;
      },
      live: false,
      quiet: false,
      color: false,
      stream: new PassThrough(),
    });
    const sink = progress.sink('ACME');
    sink({ type: 'agent-end', agent: 'risk', status: 'failed', durationMs: 900, error: 'OpenAI service error (503)' });
    sink({ type: 'warning', message: 'risk failed: OpenAI service error (503)' });
    sink({ type: 'warning', message: 'quant failed: not a failure this sink saw' });
    progress.stop();
    expect(written).toBe(
      '[ACME] risk: failed — OpenAI service error (503)\n[ACME] warning: quant failed: not a failure this sink saw\n',
    );
  });
});
