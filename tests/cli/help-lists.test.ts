import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deskIds } from '../../agents/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

async function help(argv: string[]): Promise<string> {
  const io = captureIo();
  expect(await runCli(argv, io)).toBe(0);
  return io.out();
}

describe('--help names what a user can set', () => {
  it('every variable of the README Configuration table is in the Environment list', async () => {
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 3),
    );
    const variables = [...section.matchAll(/^\| `([A-Z_]+)`/gm)].map((match) => match[1]!);
    expect(variables.length).toBeGreaterThan(8);
    const text = (await help(['--help'])).replace(/\s+/g, ' ');
    for (const variable of variables) {
      const listed =
        text.includes(variable) || (variable.endsWith('_MODEL') && text.includes(`${variable.slice(0, -6)}[_MODEL]`));
      expect(listed, `${variable} in --help`).toBe(true);
    }
  });

  it('analyze --help lists the desk ids --agent takes', async () => {
    const text = (await help(['analyze', '--help'])).replace(/\s+/g, ' ');
    expect(text).toContain(`(repeatable): ${deskIds.join(', ')}`);
  });
});
