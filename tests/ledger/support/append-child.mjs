// A separate process appending records to one home's ledger, through the built library:
// node append-child.mjs <dist ledger index> <home> <result.json> <count> <label>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [entry, home, resultFile, count, label] = process.argv.slice(2);
const { appendRunToLedger } = await import(pathToFileURL(entry).href);
const template = JSON.parse(readFileSync(resultFile, 'utf8'));
for (let index = 0; index < Number(count); index += 1) {
  const result = { ...template, runId: `${label}-${index}` };
  const resultJson = `${JSON.stringify(result, null, 2)}\n`;
  await appendRunToLedger({ home, result, resultJson });
}
