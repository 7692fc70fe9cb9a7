import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { packageRoot } from '../paths.js';

const cache = new Map<string, string>();

/**
 * A prompt from the installed package's prompts/ folder (never the working directory),
 * or, for a library caller's own roster, from the absolute path its definition names.
 */
export function loadPrompt(file: string): string {
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  const text = readFileSync(isAbsolute(file) ? file : join(packageRoot(), 'prompts', file), 'utf8');
  cache.set(file, text);
  return text;
}

/**
 * Fills {{name}} placeholders. A placeholder with no value is a bug in the caller,
 * so it throws rather than sending a model a literal "{{thesis}}".
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`prompt placeholder {{${name}}} has no value`);
    return value;
  });
}
