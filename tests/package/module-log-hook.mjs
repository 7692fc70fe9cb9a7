// Preloaded with `node --import <this file>`: appends the URL of every module the
// process resolves to the file named by AUTOHEDGE_MODULE_LOG, so a test can tell
// which packages a command loaded. module.register works on every supported Node;
// ESM imports (how autohedge loads its SDKs) all pass through its resolve hook.
import { register } from 'node:module';

const logFile = process.env.AUTOHEDGE_MODULE_LOG;
if (!logFile) throw new Error('module-log-hook: set AUTOHEDGE_MODULE_LOG to the file to write');
register('./module-log-loader.mjs', import.meta.url, { data: { logFile } });
