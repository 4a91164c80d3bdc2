import fc from 'fast-check';
import { type JsonSchema, validish } from './schema-arbitrary.ts';

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface FuzzOperation {
  readonly method: string;
  /** OpenAPI form: `/runs/{id}`. */
  readonly path: string;
  readonly params: readonly { readonly name: string; readonly in: string; readonly schema?: JsonSchema }[];
  readonly body?: JsonSchema;
  readonly idempotent: boolean;
}

/** A request to send: path with its query, headers, and the body as text or bytes. */
export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Which strategy made it, for the report. */
  readonly kind: string;
}

/** What the fuzzer knows of the world: real ids by path parameter, a live token, field names worth trying. */
export interface FuzzWorld {
  readonly realIds: Readonly<Record<string, readonly string[]>>;
  readonly token: string;
}

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));

/** Text with the characters PostgreSQL refuses (NUL, lone surrogates) and other troublemakers mixed in. */
export const poisonText = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 24 }),
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '\ud800',
    'x\udc00y',
    '\ud83d',
    'ok\ud83d\ude00ok',
    '\u202e\u0007',
    '%00',
    '\\u0000',
  ),
);

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** Dates at the ends of the calendar (PostgreSQL has no year 0; year 9999 plus a week is year 10000). */
const EDGE_DATES = [
  '0000-01-03',
  '0000-01-01T00:00:00Z',
  '0001-01-01',
  '9999-12-27',
  '9999-12-31T23:59:59Z',
  '2026-02-30',
];

/** JSON values no field expects: wrong types, numbers past every column, NaN-like strings, poison, size bombs. */
export const badJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(null, true, false, 0, -1, -0, 0.5, 1e308, -1e308, 1e-320) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(2_147_483_648, -2_147_483_649, 2 ** 53 + 2, 4_102_444_800_000, 1e10),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'NaN',
      'Infinity',
      '-Infinity',
      '1e400',
      '0x1F',
      '١٢٣',
      'null',
      '[]',
      ...EDGE_DATES,
      '2026-02-30T00:00:00Z',
    ),
  },
  { weight: 4, arbitrary: poisonText },
  { weight: 1, arbitrary: fc.constant('x'.repeat(100_000)) },
  { weight: 1, arbitrary: fc.constantFrom(nested(40), nested(33)) },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 10_000 }, () => 0)) },
  { weight: 1, arbitrary: fc.constant(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i]))) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(poisonText, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) },
);

/** Bodies that are not JSON at all, or JSON a parser chokes on. */
const rawBodies = fc.constantFrom<string | Uint8Array>(
  '{',
  '{"a":}',
  '[1,]',
  'nul',
  '"unterminated',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"notes":"a\u0000b"}',
  `${'['.repeat(100_000)}`,
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
);

/** Numbers JSON.stringify cannot write but a client can: parsed as Infinity, -0, 0 or a rounded integer. */
const rawNumbers = fc.constantFrom('1e400', '-1e400', '-0', '1e-400', '12345678901234567890123', '0.1e1');

/** Percent-encodes a path segment or query value, writing a lone surrogate as its (invalid) UTF-8-style bytes. */
export function encodeLoosely(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += `%ED%${(0xa0 | ((unit >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (unit & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(text[i]!);
  }
  return out;
}

/** Path segments that are not ids, already encoded. */
const rawSegments = fc.constantFrom(
  'a%00b',
  '%ED%A0%80',
  '%',
  '%zz',
  '..',
  '%2E%2E',
  '%2F',
  'x'.repeat(400),
  "x'%3B--",
  '-1',
  '0',
  '1e400',
  'null',
  '%F0%9F%8F%83',
);

function segmentFor(param: FuzzOperation['params'][number], world: FuzzWorld): fc.Arbitrary<string> {
  const real = world.realIds[param.name] ?? [];
  return fc.oneof(
    ...(real.length > 0 ? [{ weight: 2, arbitrary: fc.constantFrom(...real) }] : []),
    { weight: 3, arbitrary: rawSegments },
    { weight: 2, arbitrary: poisonText.filter((s) => s.length > 0).map(encodeLoosely) },
    {
      weight: 1,
      arbitrary: validish(param.schema).map((v) => encodeLoosely(typeof v === 'string' && v ? v : String(v))),
    },
  );
}

const asQueryText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function queryFor(op: FuzzOperation): fc.Arbitrary<string> {
  const documented = op.params.filter((p) => p.in === 'query');
  const pairs = documented.map((p) =>
    fc
      .option(
        fc.oneof(
          validish(p.schema).map(asQueryText),
          badJson.filter((v) => typeof v !== 'object' || v === null).map(asQueryText),
          fc.constantFrom('', '1e400', '-1', '99999999999999999999', 'NaN', 'true', ...EDGE_DATES),
        ),
        { nil: undefined },
      )
      .map((value) => (value === undefined ? [] : [[p.name, value] as const])),
  );
  const extra = fc.option(
    fc.tuple(
      fc.constantFrom('limit', 'cursor', 'type', 'grant_type', 'scope', 'token', 'redirect_to', 'x'),
      poisonText,
    ),
    { nil: undefined, freq: 3 },
  );
  return fc.tuple(fc.tuple(...pairs), extra, fc.boolean()).map(([chosen, more, repeat]) => {
    const all: (readonly [string, string])[] = [...chosen.flat(), ...(more ? [more] : [])];
    if (repeat && all[0]) all.push(all[0]);
    return all.length === 0
      ? ''
      : `?${all.map(([k, v]) => `${encodeLoosely(k)}=${encodeLoosely(v.slice(0, 10_000))}`).join('&')}`;
  });
}

/** Field names of bodies without a documented schema (the GoTrue-compatible /auth/v1, webhooks). */
const FIELD_NAMES = [
  'email',
  'password',
  'data',
  'token',
  'type',
  'token_hash',
  'redirect_to',
  'code_challenge',
  'code_challenge_method',
  'refresh_token',
  'auth_code',
  'code_verifier',
  'nonce',
  'factor_type',
  'friendly_name',
  'challenge_id',
  'code',
  'issuer',
  'phone',
  'create_user',
  'options',
  'provider',
  'domain',
  'timezone',
  'display_name',
  'goal_id',
  'token',
  'object_type',
  'aspect_type',
  'object_id',
  'owner_id',
  'updates',
  'event_time',
  'id',
  'status',
] as const;

const plausible = fc.oneof(
  fc.constantFrom(
    'fuzz@example.com',
    'correct horse battery',
    'signup',
    'recovery',
    'totp',
    'activity',
    'create',
    'strava',
  ),
  fc.integer(),
  fc.string({ maxLength: 12 }),
);

function bodyFor(op: FuzzOperation): fc.Arbitrary<{ body?: string | Uint8Array; kind: string }> {
  const json = (kind: string) => (value: unknown) => ({ body: JSON.stringify(value), kind });
  const strategies: { weight: number; arbitrary: fc.Arbitrary<{ body?: string | Uint8Array; kind: string }> }[] = [
    { weight: 1, arbitrary: rawBodies.map((body) => ({ body, kind: 'malformed body' })) },
    { weight: 1, arbitrary: badJson.map(json('bad whole body')) },
  ];
  const schema = op.body;
  if (schema?.properties && Object.keys(schema.properties).length > 0) {
    const names = Object.keys(schema.properties);
    const valid = validish(schema) as fc.Arbitrary<Record<string, unknown>>;
    strategies.push(
      { weight: 2, arbitrary: valid.map(json('schema-valid body')) },
      {
        weight: 5,
        arbitrary: fc
          .tuple(valid, fc.constantFrom(...names), badJson)
          .map(([base, name, bad]) => ({ body: JSON.stringify({ ...base, [name]: bad }), kind: 'one bad field' })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, fc.constantFrom(...names), rawNumbers).map(([base, name, raw]) => ({
          body: JSON.stringify({ ...base, [name]: '__RAW__' }).replace('"__RAW__"', raw),
          kind: 'raw number',
        })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, fc.constantFrom(...names)).map(([base, name]) => {
          const { [name]: _dropped, ...rest } = base;
          return { body: JSON.stringify(rest), kind: 'missing field' };
        }),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, poisonText, badJson).map(([base, name, bad]) => ({
          body: JSON.stringify({ ...base, [name || 'extra']: bad }),
          kind: 'extra field',
        })),
      },
    );
  } else {
    strategies.push(
      { weight: 1, arbitrary: fc.constant({ kind: 'no body' }) },
      {
        weight: 4,
        arbitrary: fc
          .dictionary(fc.constantFrom(...FIELD_NAMES), fc.oneof(plausible, badJson), { maxKeys: 4 })
          .map(json('guessed fields')),
      },
    );
  }
  return fc.oneof(...strategies);
}

function headersFor(op: FuzzOperation, world: FuzzWorld): fc.Arbitrary<Record<string, string>> {
  const auth = fc.oneof(
    { weight: 9, arbitrary: fc.constant(`Bearer ${world.token}`) },
    { weight: 1, arbitrary: fc.constantFrom('Bearer garbage', 'Bearer ', `Bearer ${world.token}x`, 'Basic YTpi') },
  );
  const key = fc.oneof(
    { weight: op.idempotent ? 4 : 1, arbitrary: fc.constant(undefined) },
    { weight: op.idempotent ? 3 : 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom('has space', 'x'.repeat(300), 'ünïcode', 'fixed-fuzz-key') },
  );
  const type = fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', undefined);
  return fc.tuple(auth, key, type).map(([authorization, idempotencyKey, contentType]) => ({
    authorization,
    ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    ...(contentType === undefined ? {} : { 'content-type': contentType }),
  }));
}

/** Bad requests for one operation: every part (path ids, query, headers, body) generated from the document. */
export function badRequests(op: FuzzOperation, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const segments = op.params.filter((p) => p.in === 'path');
  const path = fc
    .tuple(...segments.map((p) => segmentFor(p, world)))
    .map((values) => segments.reduce((url, p, i) => url.replace(`{${p.name}}`, values[i]!), op.path));
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';
  const body: fc.Arbitrary<{ body?: string | Uint8Array; kind: string }> = hasBody
    ? bodyFor(op)
    : fc.constant({ kind: 'query and path' });
  return fc.tuple(path, queryFor(op), headersFor(op, world), body).map(([p, query, headers, b]) => ({
    method: op.method,
    url: `${p}${query}`,
    headers,
    ...(b.body === undefined ? {} : { body: b.body }),
    kind: b.kind,
  }));
}
