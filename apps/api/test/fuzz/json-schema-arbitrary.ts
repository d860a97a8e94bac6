import fc from 'fast-check';

/** The part of JSON Schema (2020-12, as zod writes it into the OpenAPI document) the fuzz reads. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** Extra values for fields known by name (a real id, a real image), mixed with the generated. */
export type FieldHints = Partial<Record<string, fc.Arbitrary<unknown>>>;

// Generated strings and lists stay short unless a schema asks for more; the hostile values
// below bring the long ones.
const shortText = 40;
const fewItems = 4;

/** Values that break parsers and databases in practice; any field may get one. */
export const hostileValues: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\u202eevil',
  'e\u0301\u0301\u0301\u0301',
  '😀'.repeat(500),
  'x'.repeat(100_000),
  '0000-01-01',
  '9999-12-31T23:59:59-12:00',
  '2020-02-30',
  '00000000-0000-0000-0000-000000000000',
  "' OR 1=1 --",
  '../../../etc/passwd',
  '%00%2e%2e',
  'NaN',
  '-0',
  '1e999',
  [],
  [null],
  {},
  JSON.parse('{"__proto__":{"polluted":true}}'),
  nestedArrays(2000),
];

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

export const hostileValue = fc.constantFrom(...hostileValues);

// fast-check's integer arbitrary takes 32-bit bounds; the schema's edges are added as constants.
const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const clamp = (value: number, { min, max }: { min: number; max: number }) =>
  Math.min(Math.max(value, min), max);

function integerValue(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Math.ceil(schema.minimum ?? (schema.exclusiveMinimum ?? -Infinity) + 1);
  const max = Math.floor(schema.maximum ?? (schema.exclusiveMaximum ?? Infinity) - 1);
  const edges = [min, max].filter(Number.isFinite);
  const middle = fc.integer({ min: clamp(min, int32), max: clamp(max, int32) });
  return edges.length === 0 ? middle : fc.oneof(middle, fc.constantFrom(...edges));
}

function numberValue(schema: JsonSchema): fc.Arbitrary<number> {
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(schema.minimum === undefined ? {} : { min: schema.minimum }),
    ...(schema.maximum === undefined ? {} : { max: schema.maximum }),
    ...(schema.exclusiveMinimum === undefined
      ? {}
      : { min: schema.exclusiveMinimum, minExcluded: true }),
    ...(schema.exclusiveMaximum === undefined
      ? {}
      : { max: schema.exclusiveMaximum, maxExcluded: true }),
  });
}

// Years 0000 to 9999: what the ISO formats can write.
const isoDates = fc.date({
  noInvalidDate: true,
  min: new Date('0000-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
});
const byFormat: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  date: isoDates.map((date) => date.toISOString().slice(0, 10)),
  'date-time': isoDates.map((date) => date.toISOString()),
};

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? shortText, 300));
  // A known format is generated directly: building a UUID or an address from its pattern is
  // slow, and the format's generator covers the same values.
  const formatted = schema.format === undefined ? undefined : byFormat[schema.format];
  if (formatted !== undefined) return formatted;
  if (schema.pattern !== undefined) {
    // Only the schema's own bounds: the short default above could exclude every match.
    const withinBounds = (text: string) =>
      text.length >= minLength && text.length <= (schema.maxLength ?? Infinity);
    return fc.stringMatching(new RegExp(schema.pattern)).filter(withinBounds);
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
  );
}

function objectValue(schema: JsonSchema, hints: FieldHints): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const hint = hints[name];
      const generated = validValue(property, hints);
      return [name, hint === undefined ? generated : fc.oneof(hint, generated)];
    }),
  );
  const fixed = fc.record(model, { requiredKeys: schema.required ?? [] });
  const extra = schema.additionalProperties;
  if (typeof extra !== 'object') return fixed;
  const keys = schema.propertyNames === undefined ? fc.string() : stringValue(schema.propertyNames);
  return fc
    .tuple(fixed, fc.dictionary(keys, validValue(extra, hints), { maxKeys: fewItems }))
    .map(([known, more]) => ({ ...more, ...known }));
}

function valueOfType(type: string, schema: JsonSchema, hints: FieldHints): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringValue(schema);
    case 'integer':
      return integerValue(schema);
    case 'number':
      return numberValue(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items ?? {}, hints), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? fewItems, fewItems)),
      });
    case 'object':
      return objectValue(schema, hints);
    default:
      throw new Error(`The fuzz does not know the JSON Schema type ${type}.`);
  }
}

/** Values the schema allows (as closely as JSON Schema can say what the API accepts). */
export function validValue(schema: JsonSchema, hints: FieldHints = {}): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices !== undefined) return fc.oneof(...choices.map((choice) => validValue(choice, hints)));
  if (schema.type === undefined) return fc.jsonValue({ maxDepth: 2 });
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return fc.oneof(...types.map((type) => valueOfType(type, schema, hints)));
}

/** Values just past the schema's own limits: one too long, one too many, one over the maximum. */
function pastTheLimits(schema: JsonSchema): unknown[] {
  const past: unknown[] = [];
  if (schema.maxLength !== undefined) past.push('a'.repeat(schema.maxLength + 1));
  if (schema.minLength !== undefined && schema.minLength > 0) {
    past.push('a'.repeat(schema.minLength - 1));
  }
  if (schema.maximum !== undefined) past.push(schema.maximum + 1);
  if (schema.minimum !== undefined) past.push(schema.minimum - 1);
  if (schema.type === 'integer') past.push(0.5);
  if (schema.maxItems !== undefined)
    past.push(Array.from({ length: schema.maxItems + 1 }, () => 1));
  if (schema.format !== undefined || schema.pattern !== undefined) past.push('not-a-match');
  if (schema.enum !== undefined) past.push('not-one-of-them');
  return past;
}

/** A value the schema refuses, or one that probes its edges. */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const past = pastTheLimits(schema);
  return past.length === 0 ? hostileValue : fc.oneof(hostileValue, fc.constantFrom(...past));
}

/**
 * An object the schema refuses: a valid one with a required field left out, one field made
 * invalid, or a field it does not declare added; or no object at all.
 */
export function invalidObject(schema: JsonSchema, hints: FieldHints): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const required = schema.required ?? [];
  const valid = validValue(schema, hints).map((value) => value as Record<string, unknown>);
  const mutations: fc.Arbitrary<unknown>[] = [
    hostileValue,
    fc
      .tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), hostileValue)
      .map(([body, name, value]) => ({ ...body, [`extra_${name}`]: value })),
  ];
  if (required.length > 0) {
    mutations.push(
      fc
        .tuple(valid, fc.constantFrom(...required))
        .map(([body, name]) =>
          Object.fromEntries(Object.entries(body).filter(([k]) => k !== name)),
        ),
    );
  }
  if (properties.length > 0) {
    mutations.push(
      fc
        .constantFrom(...properties)
        .chain(([name, property]) =>
          fc
            .tuple(valid, invalidValue(property))
            .map(([body, value]) => ({ ...body, [name]: value })),
        ),
    );
  }
  return fc.oneof(...mutations);
}
