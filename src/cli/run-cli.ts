import { createRequire } from 'node:module';
import { ExitCode } from '../errors.js';
import { packageVersion } from '../paths.js';
import { sanitizeText } from '../sanitize.js';
import { commandTable, programHelp } from './command-table.js';
import type { CliDeps } from './deps.js';
import { exitCodeFor, formatCommanderError, formatError, isCommanderError } from './exit.js';
import type { CliIo } from './io.js';
import { checkHomeFor } from './home-check.js';
import { register } from './program.js';
import { redactingIo, secretsOf } from './redact.js';

// commander is CommonJS: required directly, it skips the ESM wrapper and the scan of its
// exports that `import` costs — about 3 ms of every start-up, a tenth of what `--help`
// adds to a bare `node` (npm run bench, P2). The same classes either way.
const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

/**
 * The CLI as a function: parse argv, run one command, return the exit code.
 * bin/autohedge.js is a thin shim around this; tests call it in-process. The commands
 * are the entries of src/cli/command-table.ts, their options those of the catalogue
 * (src/cli/option-catalogue.ts); a command's module is imported only when it runs.
 */
export async function runCli(argv: string[], rawIo: CliIo, deps: CliDeps = {}): Promise<number> {
  // Every command's output, usage errors from commander included, is scrubbed alike.
  const io = redactingIo(rawIo, secretsOf(rawIo.env));
  let exitCode: number = ExitCode.ok;
  const verbose = argv.includes('--verbose');
  const program = new commander.Command('autohedge')
    .description('A team of LLM agents that analyses a stock on real market data.')
    .version(packageVersion(), '-V, --version')
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Commander quotes the offending argument, which may hold anything.
      outputError: (text, write) => write(`${sanitizeText(formatCommanderError(text))}\n`),
    })
    .addHelpText('after', programHelp)
    .exitOverride()
    // Options belong to the command they follow (`runs show <id> --json` is show's --json).
    .enablePositionalOptions();

  for (const command of commandTable) {
    register(commander, program, command, async (spec, input) => {
      await checkHomeFor(spec.name, io.env);
      exitCode = await spec.run({ ...input, options: input.options as Record<string, unknown>, io, deps, argv });
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof commander.CommanderError || isCommanderError(error)) {
      const code = (error as import('commander').CommanderError).code;
      // --help and --version end through exitOverride with exit code 0.
      if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help')
        return ExitCode.ok;
      return ExitCode.usage;
    }
    io.stderr(`${formatError(error, verbose)}\n`);
    return exitCodeFor(error);
  }
}
