import type { Command as CommanderCommand, Option as CommanderOption } from 'commander';
import type { ZodType } from 'zod';
import { optionKeysOf, type Command, type CommandInput } from './command-table.js';
import { optionCatalogue, optionGroups, type OptionKey } from './option-catalogue.js';

type Commander = typeof import('commander');

/** How a command's action reaches runCli: the command, and its parsed input. */
export type Dispatch = (command: Command, input: Pick<CommandInput<unknown>, 'args' | 'options'>) => Promise<void>;

/** Adds a table entry (and its subcommands) to a commander program, options from the catalogue. */
export function register(commander: Commander, parent: CommanderCommand, spec: Command, dispatch: Dispatch): void {
  const command = parent.command(spec.name).description(spec.description);
  for (const alias of spec.aliases ?? []) command.alias(alias);
  if (spec.subcommands) command.enablePositionalOptions();
  for (const [syntax, help] of spec.args ?? []) command.argument(syntax, help);
  const headings = groupHeadings(spec);
  for (const key of optionKeysOf(spec)) command.addOption(optionFor(commander, spec, key, headings.get(key)));
  command.action(async (...values: unknown[]) => {
    // commander passes the arguments, then the options, then the command itself.
    const args = values.slice(0, spec.args?.length ?? 0) as Array<string | string[]>;
    const raw = values[spec.args?.length ?? 0] as Record<string, unknown>;
    await dispatch(spec, { args, options: await parseCommandOptions(spec, raw) });
  });
  for (const sub of spec.subcommands ?? []) register(commander, command, sub, dispatch);
}

/** A catalogue entry as a commander Option: this command's help and default where it has its own. */
function optionFor(commander: Commander, spec: Command, key: OptionKey, heading: string | undefined): CommanderOption {
  const entry = optionCatalogue[key];
  const option = new commander.Option(entry.flags, spec.help?.[key] ?? entry.help);
  const fallback = spec.defaults?.[key] ?? ('default' in entry ? entry.default : undefined);
  if ('repeatable' in entry && entry.repeatable) option.argParser(collect);
  if (fallback !== undefined) option.default(Array.isArray(fallback) ? [...fallback] : fallback);
  if (heading !== undefined) option.helpGroup(`${heading}:`);
  return option;
}

/** Options that came in by a group carry its heading; single options stay under "Options". */
function groupHeadings(spec: Command): Map<OptionKey, string> {
  const headings = new Map<OptionKey, string>();
  for (const group of spec.groups ?? []) {
    for (const key of optionGroups[group].options) headings.set(key, optionGroups[group].heading);
  }
  return headings;
}

/** The raw values validated by the catalogue's zod fields (loaded only now); a bad value is a UsageError. */
export async function parseCommandOptions(
  spec: Command,
  raw: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const fields = await import('./options.js');
  const shape = Object.fromEntries(
    optionKeysOf(spec).map((key) => {
      const entry = optionCatalogue[key];
      const field = entry.field(fields);
      const fallback = spec.defaults?.[key] ?? ('default' in entry ? entry.default : undefined);
      return [key, fallback === undefined ? field : (field as ZodType).prefault(fallback as never)];
    }),
  );
  return fields.parseOptions(fields.z.object(shape), raw) as Record<string, unknown>;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
