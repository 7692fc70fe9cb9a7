import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { colorEnabled } from '../../src/cli/io.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';

describe('colour', () => {
  it('follows the terminal, NO_COLOR, FORCE_COLOR and TERM=dumb', () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    // An empty NO_COLOR does not count (no-color.org).
    expect(colorEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colorEnabled({ TERM: 'dumb' }, true)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
  });

  it('colours the report off a terminal only when FORCE_COLOR asks for it', async () => {
    const ansi = /\u001b\[\d+(;\d+)*m/;
    const script = () =>
      new ScriptedModel({
        quant: [{ text: 'Quant report.' }],
      });
    const plain = captureIo();
    await runCli(['analyze', 'ACME', '--agent', 'quant', '--no-save'], plain, {
      model: script(),
      market: fakeMarket(),
      search: { search: async () => [] },
    });
    expect(plain.out()).toContain('Quant report.');
    expect(plain.out()).not.toMatch(ansi);

    const forced = captureIo();
    forced.env = { AUTOHEDGE_HOME: forced.env.AUTOHEDGE_HOME, FORCE_COLOR: '1' };
    await runCli(['analyze', 'ACME', '--agent', 'quant', '--no-save'], forced, {
      model: script(),
      market: fakeMarket(),
      search: { search: async () => [] },
    });
    expect(forced.out()).toMatch(ansi);
  });
});
