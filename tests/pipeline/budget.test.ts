// --max-cost never passes silently: an unknown price or a cost that is not a finite number
// stops the call instead of comparing false (NaN) with the cap.
import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/errors.js';
import { withBudget } from '../../src/pipeline/budget.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';

const request = (model: string) => ({
  model,
  agent: 'quant',
  messages: [{ role: 'user' as const, content: 'Analyse ACME.' }],
  maxTokens: 100,
});

describe('withBudget', () => {
  it('an inherited member is no price: `constructor` is refused before any call', async () => {
    const inner = new ScriptedModel([{ text: 'never' }]);
    const capped = withBudget(inner, 0.01, { 'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 } });
    await expect(capped.complete(request('constructor'))).rejects.toThrow(
      new BudgetExceededError("no price is known for model 'constructor', so --max-cost cannot be enforced"),
    );
    expect(inner.requests).toHaveLength(0);
  });

  it('usage that is not a number (a server sent "abc" tokens: NaN) counts as the worst case, so the cap still stops the third call', async () => {
    const inner = new ScriptedModel([
      { text: 'one', usage: { promptTokens: Number.NaN, completionTokens: 1 } },
      { text: 'two' },
      { text: 'three' },
    ]);
    // Room for two worst cases of this request (about 0.0008 USD each), not three.
    const capped = withBudget(inner, 0.002, { priced: { input: 2, cachedInput: 2, output: 8 } });
    await capped.complete(request('priced'));
    await capped.complete(request('priced'));
    await expect(capped.complete(request('priced'))).rejects.toThrow(BudgetExceededError);
    expect(inner.requests).toHaveLength(2);
  });
});
