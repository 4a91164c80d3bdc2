import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, scrubText, scrubValue } from './scrub.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 1_000);

/** E-mail addresses as people have them: dots, plus tags, subdomains, upper case. */
const email = fc
  .tuple(
    fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9._+-]{0,20}$/),
    fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9-]{0,12}$/),
    fc.constantFrom('com', 'org', 'co.uk', 'app', 'example', 'io'),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

/** Tokens the app holds: JWT access tokens, opaque refresh tokens, push tokens (hex/base64url, 32+ characters). */
const jwtPart = fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/);
const jwt = fc.tuple(jwtPart, jwtPart, jwtPart).map(([a, b, c]) => `eyJ${a}.${b}.${c}`);
const opaque = fc.stringMatching(/^[A-Za-z0-9_-]{32,80}$/);
const token = fc.oneof(jwt, opaque);

/** A GPS fix's coordinates as the tracker records them (full double precision) or rounded to 4-7 places. */
const coordinate = (max: number) =>
  fc
    .tuple(fc.double({ min: -max, max, noNaN: true }), fc.integer({ min: 4, max: 15 }))
    .map(([value, places]) => value.toFixed(places));
const fix = fc.tuple(coordinate(90), coordinate(180));

/** Filler text around the secret: words, punctuation, URLs. */
const filler = fc.stringMatching(/^[a-zA-Z ,.:()]{0,30}$/);

describe('the error scrubber: nothing personal leaves the browser (property)', () => {
  it('no generated e-mail address survives, bare, in a URL (%40) or in JSON', () => {
    fc.assert(
      fc.property(email, filler, filler, (address, before, after) => {
        for (const text of [
          `${before}${address}${after}`,
          `https://api.example/auth?email=${encodeURIComponent(address)}&x=1`,
          JSON.stringify({ note: `${before} ${address}`, user: { email: address } }),
        ]) {
          const out = scrubText(text);
          expect(out).not.toContain(address);
          expect(out).not.toContain(encodeURIComponent(address));
        }
        expect(JSON.stringify(scrubValue({ user: { email: address }, message: `for ${address}` }))).not.toContain(
          address,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('no generated token survives: in an Authorization header, a URL, a JSON body or a message', () => {
    fc.assert(
      fc.property(token, filler, fc.constantFrom('access_token', 'refresh_token', 'token', 'code', 'state'), (t, f, k) => {
        const texts = [
          `Bearer ${t}`,
          `${f} failed with ${t}`,
          `https://api.example/cb?${k}=${t}&scope=read`,
          `https://app.example/connected-apps#provider=strava&${k}=${t}`,
          JSON.stringify({ [k]: t, grant_type: 'refresh_token' }),
        ];
        for (const text of texts) expect(scrubText(text)).not.toContain(t);
        const event = scrubValue({ request: { headers: { Authorization: `Bearer ${t}` }, data: { [k]: t } } });
        expect(JSON.stringify(event)).not.toContain(t);
      }),
      { numRuns: RUNS },
    );
  });

  it('no generated GPS fix survives: a pair in a message, fields of a fix, a track array, a JSON body', () => {
    fc.assert(
      fc.property(fix, filler, ([lat, lon], f) => {
        const texts = [
          `${f} at ${lat},${lon}`,
          `${lat}, ${lon}`,
          `lat=${lat}&lon=${lon}`,
          JSON.stringify({ latitude: Number(lat), longitude: Number(lon) }),
        ];
        for (const text of texts) {
          const out = scrubText(text);
          expect(out).not.toContain(lat);
          expect(out).not.toContain(lon);
        }
        const event = scrubValue({
          extra: { fixes: [{ latitude: Number(lat), longitude: Number(lon), accuracy: 5 }] },
          contexts: { run: { positions: [[Number(lat), Number(lon)]], coords: { lat: Number(lat), lng: Number(lon) } } },
          breadcrumbs: [{ category: 'console', data: { arguments: [{ latitude: Number(lat), longitude: Number(lon) }] } }],
        });
        const sent = JSON.stringify(event);
        expect(sent).not.toContain(String(Number(lat)));
        expect(sent).not.toContain(String(Number(lon)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the error scrubber keeps what makes a report useful', () => {
  it('keeps the SDK ids, the error type, the stack frames and ordinary words', () => {
    const event = {
      event_id: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
      contexts: { trace: { trace_id: 'f'.repeat(32), span_id: '0123456789abcdef' } },
      exception: {
        values: [
          {
            type: 'TypeError',
            value: 'Cannot read properties of undefined (reading distance)',
            stacktrace: { frames: [{ filename: 'https://app.example/assets/app-B1x2.js', lineno: 3, colno: 120 }] },
          },
        ],
      },
      timestamp: 1764190000.1234,
    };
    expect(scrubValue(event)).toEqual(event);
  });

  it('replaces secret fields whole and cuts cycles', () => {
    const cyclic: Record<string, unknown> = { name: 'run' };
    cyclic.self = cyclic;
    expect(scrubValue({ password: 'hunter2', refresh_token: 42, nested: cyclic })).toEqual({
      password: REDACTED,
      refresh_token: REDACTED,
      nested: { name: 'run', self: REDACTED },
    });
  });
});
