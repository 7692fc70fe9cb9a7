import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { ToolContext } from '../../src/tools/types.js';
import { jsonErrorOf } from '../support/json.js';

const context: ToolContext = { asOf: new Date('2025-10-10T20:00:00Z'), signal: new AbortController().signal };

function searchTool() {
  return defineTool({
    name: 'exa_search',
    description: 'Search the web for recent news about a company',
    outputs: 'numbered results with title, date, url and an excerpt',
    parameters: z.object({
      query: z.string().min(1).describe('What to search for'),
      numResults: z.number().int().min(1).max(10).default(5).describe('How many results'),
      daysBack: z.number().int().min(1).optional().describe('Only results published this many days before asOf'),
    }),
    run: async ({ query, numResults, daysBack }) => `${query}|${numResults}|${daysBack ?? 'any'}`,
  });
}

describe('defineTool: the strict definition', () => {
  it('derives the exact function definition for a flat schema with defaults and optional fields', () => {
    expect(searchTool().definition).toEqual({
      type: 'function',
      function: {
        name: 'exa_search',
        description: 'Search the web for recent news about a company',
        parameters: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'What to search for' },
            numResults: {
              type: ['integer', 'null'],
              minimum: 1,
              maximum: 10,
              description: 'How many results (default: 5)',
            },
            daysBack: {
              type: ['integer', 'null'],
              minimum: 1,
              description: 'Only results published this many days before asOf',
            },
          },
          required: ['query', 'numResults', 'daysBack'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });

  it('has no $schema key and no default keyword anywhere', () => {
    const text = JSON.stringify(searchTool().definition);
    expect(text).not.toContain('$schema');
    expect(text).not.toContain('"default"');
    expect(text).not.toContain('minLength');
  });

  it('closes nested objects and arrays of objects, keeps enums, makes optional nested fields nullable', () => {
    const tool = defineTool({
      name: 'place_order',
      description: 'Place an order',
      outputs: 'the order id',
      parameters: z.object({
        side: z.enum(['buy', 'sell']).describe('Direction'),
        legs: z
          .array(
            z.object({
              ticker: z.string(),
              weight: z.number().min(0).max(1),
              note: z.string().optional(),
            }),
          )
          .min(1)
          .max(4),
        limits: z
          .object({
            stopLoss: z.number().nullable(),
            horizon: z.enum(['day', 'week']).optional(),
          })
          .optional()
          .describe('Risk limits'),
        tags: z.array(z.string()).optional(),
        kind: z.literal('equity'),
      }),
      run: async () => 'ok',
    });
    expect(tool.definition.function.parameters).toEqual({
      type: 'object',
      properties: {
        side: { type: 'string', enum: ['buy', 'sell'], description: 'Direction' },
        legs: {
          type: 'array',
          minItems: 1,
          maxItems: 4,
          items: {
            type: 'object',
            properties: {
              ticker: { type: 'string' },
              weight: { type: 'number', minimum: 0, maximum: 1 },
              note: { type: ['string', 'null'] },
            },
            required: ['ticker', 'weight', 'note'],
            additionalProperties: false,
          },
        },
        limits: {
          anyOf: [
            {
              type: 'object',
              properties: {
                stopLoss: { type: ['number', 'null'] },
                horizon: { type: ['string', 'null'], enum: ['day', 'week', null] },
              },
              required: ['stopLoss', 'horizon'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
          description: 'Risk limits',
        },
        tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
        kind: { type: 'string', const: 'equity' },
      },
      required: ['side', 'legs', 'limits', 'tags', 'kind'],
      additionalProperties: false,
    });
    expect(tool.describe()).toBe(
      'Tool Name: place_order, Description: Place an order, Arguments: side: "buy" | "sell", legs: object[], limits: object | null, tags: string[] | null, kind: "equity", Outputs: the order id',
    );
  });

  it('writes a discriminated union as anyOf of closed objects, and an optional literal as a nullable union', () => {
    const tool = defineTool({
      name: 'set_alert',
      description: 'Set an alert',
      outputs: 'confirmation',
      parameters: z.object({
        trigger: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('price'), level: z.number() }),
          z.object({ kind: z.literal('volume'), multiple: z.number().default(2) }),
        ]),
        channel: z.literal('email').optional(),
      }),
      run: async () => 'ok',
    });
    expect(tool.definition.function.parameters).toEqual({
      type: 'object',
      properties: {
        trigger: {
          anyOf: [
            {
              type: 'object',
              properties: { kind: { type: 'string', const: 'price' }, level: { type: 'number' } },
              required: ['kind', 'level'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: {
                kind: { type: 'string', const: 'volume' },
                multiple: { type: ['number', 'null'], description: '(default: 2)' },
              },
              required: ['kind', 'multiple'],
              additionalProperties: false,
            },
          ],
        },
        channel: { anyOf: [{ type: 'string', const: 'email' }, { type: 'null' }] },
      },
      required: ['trigger', 'channel'],
      additionalProperties: false,
    });
  });

  it('keeps a recursive schema strict inside $defs', () => {
    const Node: z.ZodType<{ name: string; children: unknown[] }> = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const tool = defineTool({
      name: 'tree',
      description: 'A tree',
      outputs: 'text',
      parameters: z.object({ root: Node }),
      run: async () => 'ok',
    });
    const parameters = tool.definition.function.parameters;
    const definitions = parameters.$defs as Record<string, Record<string, unknown>>;
    const [definition] = Object.values(definitions);
    expect(definition).toMatchObject({ type: 'object', required: ['name', 'children'], additionalProperties: false });
  });

  it('describes the seed example in the seeds one-line form', () => {
    expect(searchTool().describe()).toBe(
      'Tool Name: exa_search, Description: Search the web for recent news about a company, Arguments: query: string, numResults: number | null, daysBack: number | null, Outputs: numbered results with title, date, url and an excerpt',
    );
  });

  it('says "Arguments: none" for a tool without parameters', () => {
    const tool = defineTool({
      name: 'now',
      description: 'The time',
      outputs: 'an ISO time',
      parameters: z.object({}),
      run: async () => 'x',
    });
    expect(tool.definition.function.parameters).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(tool.describe()).toBe('Tool Name: now, Description: The time, Arguments: none, Outputs: an ISO time');
  });
});

describe('defineTool: schemas strict mode cannot express are refused at definition time', () => {
  const cases: Array<[string, z.ZodObject, string]> = [
    [
      'a record',
      z.object({ weights: z.record(z.string(), z.number()) }),
      "tool bad: the schema at 'weights' uses 'propertyNames'",
    ],
    [
      'a tuple',
      z.object({ range: z.tuple([z.number(), z.number()]) }),
      "tool bad: the schema at 'range' uses 'prefixItems'",
    ],
    ['z.any', z.object({ anything: z.any() }), "tool bad: the schema at 'anything' accepts any value"],
    [
      'a loose object',
      z.object({ inner: z.looseObject({ a: z.string() }) }),
      "tool bad: the schema at 'inner' allows extra properties",
    ],
    ['z.date', z.object({ when: z.date() }), 'tool bad: parameters cannot be written as JSON schema'],
  ];
  for (const [label, parameters, message] of cases) {
    it(`refuses ${label}`, () => {
      const define = () =>
        defineTool({ name: 'bad', description: 'x', outputs: 'x', parameters, run: async () => 'x' });
      expect(define).toThrow(ConfigError);
      expect(define).toThrow(message);
    });
  }

  it('refuses a name the API would reject', () => {
    for (const name of ['web search', '', 'a'.repeat(65), 'exa.search']) {
      expect(() =>
        defineTool({ name, description: 'x', outputs: 'x', parameters: z.object({}), run: async () => 'x' }),
      ).toThrow(`tool name '${name}' must match ^[a-zA-Z0-9_-]{1,64}$`);
    }
    expect(
      defineTool({
        name: 'a'.repeat(64),
        description: 'x',
        outputs: 'x',
        parameters: z.object({}),
        run: async () => 'x',
      }).name,
    ).toBe('a'.repeat(64));
  });
});

describe('defineTool: parse', () => {
  it('treats null for a defaulted or optional field as absent, so the default applies', () => {
    expect(searchTool().parse('{"query":"NVDA earnings","numResults":null,"daysBack":null}')).toEqual({
      ok: true,
      value: { query: 'NVDA earnings', numResults: 5 },
    });
    expect(searchTool().parse('{"query":"NVDA earnings","numResults":3,"daysBack":7}')).toEqual({
      ok: true,
      value: { query: 'NVDA earnings', numResults: 3, daysBack: 7 },
    });
  });

  it('keeps null for a field that is nullable in its own right, and clears nulls inside arrays of objects', () => {
    const tool = defineTool({
      name: 'plan',
      description: 'x',
      outputs: 'x',
      parameters: z.object({
        stopLoss: z.number().nullable().optional(),
        legs: z.array(z.object({ ticker: z.string(), note: z.string().default('none') })),
      }),
      run: async () => 'x',
    });
    expect(
      tool.parse('{"stopLoss":null,"legs":[{"ticker":"NVDA","note":null},{"ticker":"AMD","note":"hedge"}]}'),
    ).toEqual({
      ok: true,
      value: {
        stopLoss: null,
        legs: [
          { ticker: 'NVDA', note: 'none' },
          { ticker: 'AMD', note: 'hedge' },
        ],
      },
    });
  });

  it('reports a validation failure with its path, in words a model can act on', () => {
    expect(searchTool().parse('{"query":"NVDA","numResults":11,"daysBack":null}')).toEqual({
      ok: false,
      error: 'Invalid arguments for exa_search: numResults: Too big: expected number to be <=10',
    });
    expect(searchTool().parse('{"numResults":0,"daysBack":null}')).toEqual({
      ok: false,
      error:
        'Invalid arguments for exa_search: query: Invalid input: expected string, received undefined; numResults: Too small: expected number to be >=1',
    });
  });

  it('names array positions in nested paths', () => {
    const tool = defineTool({
      name: 'place_order',
      description: 'x',
      outputs: 'x',
      parameters: z.object({ legs: z.array(z.object({ side: z.enum(['buy', 'sell']) })) }),
      run: async () => 'x',
    });
    expect(tool.parse('{"legs":[{"side":"buy"},{"side":"hold"}]}')).toEqual({
      ok: false,
      error: 'Invalid arguments for place_order: legs[1].side: Invalid option: expected one of "buy"|"sell"',
    });
  });

  it('reports arguments that are not JSON, and arguments that are not an object', () => {
    expect(searchTool().parse('{"query": "NVDA"')).toEqual({
      ok: false,
      error: `Invalid arguments for exa_search: not valid JSON (${jsonErrorOf('{"query": "NVDA"')})`,
    });
    expect(searchTool().parse('["NVDA"]')).toEqual({
      ok: false,
      error: 'Invalid arguments for exa_search: Invalid input: expected object, received array',
    });
  });

  it('accepts empty arguments for a tool without parameters', () => {
    const tool = defineTool({
      name: 'now',
      description: 'x',
      outputs: 'x',
      parameters: z.object({}),
      run: async () => 'x',
    });
    expect(tool.parse('')).toEqual({ ok: true, value: {} });
  });

  it('runs with the parsed, typed arguments', async () => {
    const tool = searchTool();
    const parsed = tool.parse('{"query":"NVDA","numResults":null,"daysBack":30}');
    if (!parsed.ok) throw new Error(parsed.error);
    await expect(tool.run(parsed.value, context)).resolves.toBe('NVDA|5|30');
  });
});
