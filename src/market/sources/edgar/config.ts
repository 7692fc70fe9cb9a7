import { z } from 'zod';
import { ConfigError } from '../../../errors.js';
import { formatZodIssues } from '../../../zod-issues.js';

/**
 * SEC fair access (sec.gov/os/accessing-edgar-data): every request declares who is asking,
 * with a contact, in its User-Agent. autohedge has no contact of its own to give, so the
 * user supplies one: AUTOHEDGE_SEC_USER_AGENT="Jane Doe jane@example.com". Without it no
 * request is made and fundamentals are "not configured".
 */

export const userAgentVariable = 'AUTOHEDGE_SEC_USER_AGENT';

const userAgentSchema = z
  .string()
  .trim()
  .max(200)
  .regex(/^[^\s@][^@]*\s\S+@\S+\.\S+$/, 'a name and an e-mail address, e.g. "Jane Doe jane@example.com"');

/** The declared User-Agent, undefined when unset or blank; a malformed one is a configuration error (exit 2). */
export function secUserAgentFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env[userAgentVariable];
  if (raw === undefined || raw.trim() === '') return undefined;
  const parsed = userAgentSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(`${userAgentVariable} must be ${formatZodIssues(parsed.error, { limit: 1 })}`);
  return parsed.data;
}

/** The one line a live run prints when fundamentals are off. */
export const notConfiguredLine = `SEC EDGAR fundamentals are not configured (set ${userAgentVariable}="Name email" to declare who is asking, as SEC requires); the run goes on without them`;
