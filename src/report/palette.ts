import { Chalk, type ChalkInstance } from 'chalk';

/**
 * Chalk with an explicit level: chalk's own detection ignores NO_COLOR and reads
 * process globals, so the caller decides (colorEnabled) and this obeys.
 */
export function createPalette(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}
