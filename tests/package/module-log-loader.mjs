// The loader-thread half of module-log-hook.mjs: log each resolved URL, change nothing.
import { appendFileSync } from 'node:fs';

let logFile = '';

export function initialize(data) {
  logFile = data.logFile;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(logFile, `${resolved.url}\n`);
  return resolved;
}
