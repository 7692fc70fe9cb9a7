import { z } from 'zod';
import { ConfigError, UsageError } from '../errors.js';
import { defaultSearchChoice, searchChoices, type SearchChoice } from './types.js';

export { defaultSearchChoice };

const choiceSchema = z.enum(searchChoices);

/**
 * `--search` beats AUTOHEDGE_SEARCH beats the default. A bad flag is a usage error, a
 * bad variable a configuration error; both exit 2 and name the accepted values.
 */
export function resolveSearchChoice(flag: string | undefined, env: NodeJS.ProcessEnv): SearchChoice {
  if (flag !== undefined) {
    const parsed = choiceSchema.safeParse(flag.trim().toLowerCase());
    if (!parsed.success) throw new UsageError(`--search must be one of ${searchChoices.join(', ')} (got '${flag}')`);
    return parsed.data;
  }
  const variable = env['AUTOHEDGE_SEARCH']?.trim();
  if (!variable) return defaultSearchChoice;
  const parsed = choiceSchema.safeParse(variable.toLowerCase());
  if (!parsed.success)
    throw new ConfigError(`AUTOHEDGE_SEARCH must be one of ${searchChoices.join(', ')} (got '${variable}')`);
  return parsed.data;
}

/**
 * A historical run (`--as-of`) must see nothing from after its day. Exa takes a date
 * window and its results carry dates the tool checks; OpenAI's built-in search has no
 * date filter and its citations carry no dates, so it is refused up front (exit 2).
 */
export function checkSearchForHistoricalRun(choice: SearchChoice, historical: boolean): void {
  if (historical && choice === 'openai') {
    throw new UsageError(
      "--search openai cannot be used with --as-of: OpenAI's built-in web search has no date filter, so it could return news from after the as-of day; use --search exa (date-filtered) or --search none",
    );
  }
}
