import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { commandTable, optionKeysOf, type Command } from '../../src/cli/command-table.js';
import { optionCatalogue, optionGroups, type OptionKey } from '../../src/cli/option-catalogue.js';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

const { Option } = createRequire(import.meta.url)('commander') as typeof import('commander');
const srcCli = join(import.meta.dirname, '..', '..', 'src', 'cli');
const entries = Object.entries(optionCatalogue) as Array<[OptionKey, (typeof optionCatalogue)[OptionKey]]>;
const allCommands = (commands: readonly Command[]): Command[] =>
  commands.flatMap((command) => [command, ...allCommands(command.subcommands ?? [])]);

describe('the option catalogue', () => {
  it('declares each flag once, under the key commander reads it as', () => {
    const longs = entries.map(([, entry]) => new Option(entry.flags).long);
    const shorts = entries.map(([, entry]) => new Option(entry.flags).short).filter(Boolean);
    expect(new Set(longs).size).toBe(longs.length);
    expect(new Set(shorts).size).toBe(shorts.length);
    for (const [key, entry] of entries) expect(new Option(entry.flags).attributeName()).toBe(key);
  });

  it('puts every option in exactly one group', () => {
    const grouped = Object.values(optionGroups).flatMap((group) => [...group.options]);
    expect(new Set(grouped).size).toBe(grouped.length);
    expect([...grouped].sort()).toEqual(entries.map(([key]) => key).sort());
  });

  it('is the only place an option is declared: no .option() or new Option() elsewhere in src/cli', () => {
    const files = readdirSync(srcCli, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    const offenders = files.filter((name) => {
      const text = readFileSync(join(srcCli, name), 'utf8');
      return name !== 'program.ts' && /\.option\(\s*['"`]-|new (?:commander\.)?Option\(/.test(text);
    });
    expect(offenders).toEqual([]);
  });

  it('gives each command help and defaults only for options it takes', () => {
    for (const command of allCommands(commandTable)) {
      const keys = new Set(optionKeysOf(command));
      for (const key of Object.keys({ ...command.help, ...command.defaults }))
        expect(keys, `${command.name} ${key}`).toContain(key);
    }
  });

  it('runCli stays under 80 lines: it only loops over the command table', () => {
    const source = readFileSync(join(srcCli, 'run-cli.ts'), 'utf8').split('\n');
    const start = source.findIndex((line) => line.startsWith('export async function runCli('));
    const end = source.findIndex((line, index) => index > start && line === '}');
    expect(start).toBeGreaterThan(-1);
    expect(end - start + 1).toBeLessThanOrEqual(80);
    expect(source.join('\n')).toContain('for (const command of commandTable)');
  });
});

describe('--help from the catalogue', () => {
  it("lists every option of analyze with its help, its group's heading and the domain default", async () => {
    const io = captureIo();
    expect(await runCli(['analyze', '--help'], io)).toBe(0);
    const help = io.out().replace(/\s+/g, ' ');
    const analyze = commandTable.find((command) => command.name === 'analyze')!;
    for (const key of optionKeysOf(analyze)) {
      const entry = optionCatalogue[key];
      expect(help).toContain(new Option(entry.flags).long!);
      expect(help).toContain((analyze.help?.[key] ?? entry.help).replace(/\s+/g, ' '));
    }
    for (const heading of ['Model:', 'Guardrails and spending:', 'Record and replay:', 'Output:', 'Many tickers:'])
      expect(help).toContain(heading);
    expect(help).toContain('--max-position <pct> largest position size allowed, % of portfolio (default: "10")');
  });

  it('a bad value is one usage line naming the flag, from the zod field of the catalogue', async () => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', '--concurrency', 'zero'], io)).toBe(2);
    expect(io.err()).toBe("autohedge: --concurrency must be a whole number of at least 1 (got 'zero')\n");
    const evaluate = captureIo();
    expect(await runCli(['evaluate', '--horizon', '5,x'], evaluate)).toBe(2);
    expect(evaluate.err()).toMatch(/--horizon must be whole numbers of sessions/);
  });
});
