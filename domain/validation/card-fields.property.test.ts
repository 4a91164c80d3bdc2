import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_FIELD_MESSAGES as M,
  type CardFields,
  cardCvcProblem,
  cardExpiryProblem,
  cardFieldProblems,
  cardNumberDigits,
  cardNumberProblem,
  earliestMonthOnEarth,
  firstCardFieldProblem,
  formatCardNumberInput,
  formatExpiryInput,
  MAX_EXPIRY_YEARS_AHEAD,
  parseExpiry,
  passesLuhn,
  postcodeProblem,
  type YearMonth,
} from './card-fields.ts';

const RUNS = { numRuns: Number(process.env.CARD_FIELD_RUNS ?? 1000) };

/** The Luhn check digit that completes `body` (computed independently of passesLuhn: doubling from the right). */
function checkDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

const digitsArb = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((ds) => ds.join(''));
/** A Luhn-valid card number of 13 to 19 digits. */
const cardNumberArb = digitsArb(12, 18).map((body) => body + checkDigit(body));
const todayArb: fc.Arbitrary<YearMonth> = fc.record({
  year: fc.integer({ min: 2000, max: 2070 }),
  month: fc.integer({ min: 1, max: 12 }),
});
const addMonths = (m: YearMonth, n: number): YearMonth => {
  const index = m.year * 12 + m.month - 1 + n;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
};
const typedExpiry = (m: YearMonth) => `${String(m.month).padStart(2, '0')} / ${String(m.year % 100).padStart(2, '0')}`;

describe('card number', () => {
  it('accepts every Luhn-valid number of 13 to 19 digits, typed in groups of four or with dashes', () => {
    fc.assert(
      fc.property(cardNumberArb, (digits) => {
        expect(cardNumberProblem(digits)).toBeNull();
        expect(cardNumberProblem(formatCardNumberInput(digits))).toBeNull();
        expect(cardNumberProblem(digits.replace(/(\d{4})(?=\d)/g, '$1-'))).toBeNull();
      }),
      RUNS,
    );
  });

  it('refuses a valid number with any one digit changed (Luhn catches every single-digit mistake)', () => {
    fc.assert(
      fc.property(cardNumberArb, fc.nat(), fc.integer({ min: 1, max: 9 }), (digits, at, by) => {
        const i = at % digits.length;
        const wrong = digits.slice(0, i) + String((Number(digits[i]) + by) % 10) + digits.slice(i + 1);
        expect(passesLuhn(wrong)).toBe(false);
        expect(cardNumberProblem(wrong)).toBe(M.numberInvalid);
      }),
      RUNS,
    );
  });

  it('says incomplete under 13 digits and invalid over 19 or with anything but digits', () => {
    fc.assert(
      fc.property(
        digitsArb(0, 12),
        digitsArb(20, 30),
        fc.constantFrom('a', '.', '/', 'x', '٣'),
        (short, long, junk) => {
          expect(cardNumberProblem(short)).toBe(M.numberIncomplete);
          expect(cardNumberProblem(long)).toBe(M.numberInvalid);
          expect(cardNumberProblem(`4242424242424242${junk}`)).toBe(M.numberInvalid);
        },
      ),
      RUNS,
    );
  });

  it('the field keeps every digit typed, up to 19, in groups of four', () => {
    fc.assert(
      fc.property(digitsArb(0, 25), (digits) => {
        const shown = formatCardNumberInput(digits);
        expect(cardNumberDigits(shown)).toBe(digits.slice(0, 19));
        expect(shown).toMatch(/^(\d{4} )*\d{0,4}$/);
      }),
      RUNS,
    );
  });

  it('accepts Stripe’s test cards', () => {
    for (const n of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0025 0000 3155', '4000 0000 0000 9995']) {
      expect(cardNumberProblem(n)).toBeNull();
    }
  });
});

describe('expiry', () => {
  it('accepts this month and every month up to 20 years ahead; refuses every earlier month as past', () => {
    fc.assert(
      fc.property(todayArb, fc.integer({ min: -400, max: 12 * MAX_EXPIRY_YEARS_AHEAD }), (today, offset) => {
        const expiry = addMonths(today, offset);
        fc.pre(expiry.year >= 2000 && expiry.year <= 2099);
        const problem = cardExpiryProblem(typedExpiry(expiry), today);
        expect(problem).toBe(offset < 0 ? M.expiryPast : null);
      }),
      RUNS,
    );
  });

  it('refuses a year more than 20 years ahead', () => {
    fc.assert(
      fc.property(todayArb, fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 12 }), (today, extra, month) => {
        const year = today.year + MAX_EXPIRY_YEARS_AHEAD + extra;
        fc.pre(year <= 2099);
        expect(cardExpiryProblem(typedExpiry({ year, month }), today)).toBe(M.expiryTooFar);
      }),
      RUNS,
    );
  });

  it('reads what the field shows while typing, and says incomplete until four digits', () => {
    fc.assert(
      fc.property(todayArb, digitsArb(0, 6), (today, typed) => {
        const shown = formatExpiryInput(typed);
        const digits = typed.slice(0, 4);
        const problem = cardExpiryProblem(shown, today);
        if (digits.length < 4) expect(problem).toBe(M.expiryIncomplete);
        else {
          const month = Number(digits.slice(0, 2));
          if (month < 1 || month > 12) expect(problem).toBe(M.expiryInvalid);
          else expect(parseExpiry(shown)).toEqual({ month, year: 2000 + Number(digits.slice(2)) });
        }
      }),
      RUNS,
    );
  });

  it('refuses months 00 and 13–99, and anything with letters', () => {
    const today = { year: 2026, month: 11 };
    for (const typed of ['00 / 30', '13 / 30', '99/30', 'ab / cd', '12 / 3a', '12 / 345']) {
      expect(cardExpiryProblem(typed, today)).toBe(M.expiryInvalid);
    }
    for (const typed of ['', '1', '12 /', '12 / 3']) expect(cardExpiryProblem(typed, today)).toBe(M.expiryIncomplete);
    for (const typed of ['11/26', '11 / 26', '1126', '12 / 34']) expect(cardExpiryProblem(typed, today)).toBeNull();
    expect(cardExpiryProblem('10 / 26', today)).toBe(M.expiryPast);
  });
});

describe('CVC and postcode', () => {
  it('a CVC is 3 or 4 digits: fewer is incomplete, more or anything else invalid', () => {
    fc.assert(
      fc.property(digitsArb(0, 8), (code) => {
        const expected = code.length < 3 ? M.cvcIncomplete : code.length > 4 ? M.cvcInvalid : null;
        expect(cardCvcProblem(code)).toBe(expected);
        expect(cardCvcProblem(` ${code} `)).toBe(expected);
      }),
      RUNS,
    );
    expect(cardCvcProblem('12a')).toBe(M.cvcInvalid);
  });

  it('a postcode is anything non-blank up to 16 letters, digits, spaces and dashes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 -]{0,14}$/), fc.stringMatching(/^\s*$/), (code, blank) => {
        expect(postcodeProblem(code)).toBeNull();
        expect(postcodeProblem(blank)).toBe(M.postcodeIncomplete);
      }),
      RUNS,
    );
    for (const code of ['SW1A 1AA', '10001', 'H0H 0H0', '75008', '1010-001']) expect(postcodeProblem(code)).toBeNull();
    for (const code of ['<script>', 'x'.repeat(17), '10001\u0000'])
      expect(postcodeProblem(code)).toBe(M.postcodeInvalid);
  });
});

describe('the whole form', () => {
  it('names a problem for exactly the fields that have one, and the first one in the form’s order', () => {
    const fieldArb: fc.Arbitrary<CardFields> = fc.record({
      number: fc.oneof(cardNumberArb, digitsArb(0, 20)),
      expiry: fc.oneof(fc.constant('12 / 34'), fc.constant('01 / 20'), digitsArb(0, 4).map(formatExpiryInput)),
      cvc: digitsArb(0, 5),
      postcode: fc.oneof(fc.constant(''), fc.constant('10001'), fc.string({ maxLength: 5 })),
    });
    fc.assert(
      fc.property(fieldArb, todayArb, (fields, today) => {
        const problems = cardFieldProblems(fields, today);
        expect(problems.number ?? null).toBe(cardNumberProblem(fields.number));
        expect(problems.expiry ?? null).toBe(cardExpiryProblem(fields.expiry, today));
        expect(problems.cvc ?? null).toBe(cardCvcProblem(fields.cvc));
        expect(problems.postcode ?? null).toBe(postcodeProblem(fields.postcode));
        expect(firstCardFieldProblem(fields, today)).toBe(Object.values(problems)[0] ?? null);
      }),
      RUNS,
    );
  });
});

describe('the month the server checks expiries against', () => {
  it('is never later than the month on a device in any time zone (UTC−12 to UTC+14)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) }),
        fc.integer({ min: -12 * 60, max: 14 * 60 }),
        (instant, offsetMinutes) => {
          const device = new Date(instant + offsetMinutes * 60_000);
          const local = { year: device.getUTCFullYear(), month: device.getUTCMonth() + 1 };
          const server = earliestMonthOnEarth(instant);
          expect(server.year * 12 + server.month).toBeLessThanOrEqual(local.year * 12 + local.month);
          // And a day behind UTC at most: an expired card is refused within a day of its end.
          const utcDayBefore = new Date(instant - 24 * 60 * 60_000);
          expect(server.year * 12 + server.month).toBeGreaterThanOrEqual(
            utcDayBefore.getUTCFullYear() * 12 + utcDayBefore.getUTCMonth() + 1,
          );
        },
      ),
      RUNS,
    );
  });
});
