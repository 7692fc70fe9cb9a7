// Preloaded with `node --import <this file>`: appends the URL of every module the
// process resolves to the file named by AUTOHEDGE_MODULE_LOG, so a test can tell
// which packages a command loaded. ESM imports pass through the resolve hook that
// module.register installs; CommonJS require() (the CLI requires commander directly)
// does not, so require's resolution is logged too.
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const logFile = process.env.AUTOHEDGE_MODULE_LOG;
if (!logFile) throw new Error('module-log-hook: set AUTOHEDGE_MODULE_LOG to the file to write');
register('./module-log-loader.mjs', import.meta.url, { data: { logFile } });

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function logResolvedFilename(...args) {
  const filename = resolveFilename.apply(this, args);
  if (filename.startsWith('/')) appendFileSync(logFile, `${pathToFileURL(filename).href}\n`);
  return filename;
};
