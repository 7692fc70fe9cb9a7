import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runChromium } from './chromium.js';

/**
 * A page laid out at a phone's 390 px in headless Chromium, whose windows are at least
 * 500 px wide: the page goes into a 390 px iframe; a copy of it (without its CSP, which
 * forbids scripts) runs `measure`, which posts its numbers to the outer page, read back
 * from the dumped DOM.
 */
export async function writePhoneFrame(directory: string, html: string, measure: string): Promise<void> {
  const measured = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
  await writeFile(join(directory, 'measured.html'), measured.replace('</body>', `${measure}</body>`));
  await writeFile(
    join(directory, 'phone.html'),
    '<!doctype html><body style="margin:0"><pre id="out"></pre>' +
      '<iframe src="measured.html" width="390" height="844" style="border:0"></iframe>' +
      "<script>addEventListener('message', (event) => { document.getElementById('out').textContent = event.data; });</script></body>",
  );
}

/** What the page in `directory`'s phone frame measured (its posted text, '' when it posted nothing), and Chromium's stderr. */
export async function measureAtPhoneWidth(directory: string): Promise<{ posted: string; stderr: string }> {
  const run = await runChromium(pathToFileURL(join(directory, 'phone.html')).href, [
    '--window-size=800,1000',
    '--virtual-time-budget=3000',
    '--dump-dom',
  ]);
  const posted = /<pre id="out">([^<]*)<\/pre>/.exec(run.stdout)?.[1]?.replaceAll('&quot;', '"') ?? '';
  return { posted, stderr: run.stderr };
}
