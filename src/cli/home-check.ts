import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';
import { autohedgeHome } from '../paths.js';

/**
 * An unusable AUTOHEDGE_HOME (a regular file, or a folder that cannot be written) is one
 * line and one exit code (2, configuration) in every command that keeps its state there,
 * checked before the command starts, so none of them reports it its own way
 * ("No saved runs yet", a warning, a failed save after a finished run).
 */

/** The commands that read or write the home, by their table name; `true` when they write to it. */
const homeCommands: Readonly<Record<string, boolean>> = {
  analyze: true,
  probe: true,
  enqueue: true,
  worker: true,
  evaluate: true,
  portfolio: true,
  watch: true,
  keygen: true,
  anchor: true,
  runs: false,
  show: false,
  view: false,
};

export async function checkHomeFor(command: string, env: NodeJS.ProcessEnv): Promise<void> {
  const writes = homeCommands[command];
  if (writes === undefined) return;
  await checkHomeUsable(autohedgeHome(env), writes);
}

/** The home, or the nearest folder above it that exists (the home is made on first use), must be a writable folder. */
export async function checkHomeUsable(home: string, writes: boolean): Promise<void> {
  let path = home;
  for (;;) {
    const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
      // ENOTDIR: a file stands somewhere above; the walk up finds it.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
      throw unusable(home, `cannot be read (${error.code ?? error.message})`);
    });
    if (found === null && dirname(path) !== path) {
      path = dirname(path);
      continue;
    }
    if (found === null) return;
    if (!found.isDirectory()) throw unusable(home, path === home ? 'it is a file' : `${path} is a file`);
    if (writes && !(await writable(path)))
      throw unusable(home, path === home ? 'it cannot be written' : `${path} cannot be written`);
    return;
  }
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
}

function unusable(home: string, why: string): ConfigError {
  return new ConfigError(
    `AUTOHEDGE_HOME ${home} is not a usable folder: ${why}; set AUTOHEDGE_HOME to a folder you can write (default ~/.autohedge)`,
  );
}
