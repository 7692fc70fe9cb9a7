/**
 * Preloaded with `node --import` where /usr/bin/time is missing: writes the process's
 * peak resident set size (kB) to $AUTOHEDGE_BENCH_RSS_FILE as it exits.
 */
import { writeFileSync } from 'node:fs';

const file = process.env['AUTOHEDGE_BENCH_RSS_FILE'];
if (file) {
  process.on('exit', () => {
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
