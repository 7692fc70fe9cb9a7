import type { Command } from 'commander';
import type { CliIo } from '../io.js';

/** `autohedge ledger …` on the program; the commands themselves load only when one runs. */
export function registerLedgerCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const ledger = program
    .command('ledger')
    .description('the sealed decision ledger: verify, list, head, export, keygen (docs/ledger.md)')
    .enablePositionalOptions();
  const load = () => import('./ledger.js');
  ledger
    .command('verify')
    .description('check the chain: exit 0 intact, 1 broken (naming the first bad seq and why), 2 usage')
    .option('--ledger <file>', 'a ledger or an exported ledger (default: $AUTOHEDGE_HOME/ledger/ledger.jsonl)')
    .option('--public-key <file>', 'check every signature with this Ed25519 public key (PEM)')
    .option('--head <hash>', 'a head published earlier: the chain must still hold it')
    .option('--runs', "check each saved run's result.json against its recorded digest")
    .option('--demo', "the demo runs' own ledger")
    .option('--json', 'print { ok, records, firstBad?, torn? } as JSON')
    .action(async (options: Record<string, unknown>) => setExit(await (await load()).ledgerVerifyCommand(options, io)));
  ledger
    .command('list')
    .description('the records, oldest first')
    .option('--demo', "the demo runs' own ledger")
    .option('--json', 'print the records as JSON')
    .action(async (options: Record<string, unknown>) => setExit(await (await load()).ledgerListCommand(options, io)));
  ledger
    .command('head')
    .description('the last record hash, to publish somewhere dated')
    .option('--demo', "the demo runs' own ledger")
    .option('--json', 'print { seq, hash, recordedAt, records }')
    .action(async (options: Record<string, unknown>) => setExit(await (await load()).ledgerHeadCommand(options, io)));
  ledger
    .command('export')
    .description('write the ledger and its public key to one file, verifiable anywhere with `ledger verify --ledger`')
    .argument('<file>', 'the file to write')
    .option('--demo', "the demo runs' own ledger")
    .action(async (file: string, options: Record<string, unknown>) =>
      setExit(await (await load()).ledgerExportCommand(file, options, io)),
    );
  ledger
    .command('keygen')
    .description('make an Ed25519 signing key under $AUTOHEDGE_HOME/ledger/ (never overwrites one)')
    .action(async () => setExit(await (await load()).ledgerKeygenCommand(io)));
}
