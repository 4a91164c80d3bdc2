/*
 * The four fields of a card form (number, expiry, CVC, postcode), checked the way Stripe's card form checks them and
 * in Stripe's words, so the local gateway's form (development, demo, tests) refuses what Stripe's would and says so
 * the same way. The web form shows each sentence under its field; the local gateway's route refuses the same input
 * with the same sentence (400), so a request that skips the form gets no further than the form would.
 */

/** The sentences, one per way a field can be wrong (Stripe Elements' wording). */
export const CARD_FIELD_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: 'Your card’s expiration date is incomplete.',
  expiryInvalid: 'Your card’s expiration date is invalid.',
  expiryPast: 'Your card’s expiration date is in the past.',
  expiryTooFar: 'Your card’s expiration year is invalid.',
  cvcIncomplete: 'Your card’s security code is incomplete.',
  cvcInvalid: 'Your card’s security code is invalid.',
  postcodeIncomplete: 'Your postcode is incomplete.',
  postcodeInvalid: 'Your postcode is invalid.',
} as const;

/** Card numbers are 13 to 19 digits long (ISO/IEC 7812; Visa 13–19, Amex 15, most others 16). */
export const CARD_NUMBER_MIN_DIGITS = 13;
export const CARD_NUMBER_MAX_DIGITS = 19;
/** No card is issued for longer than this; a later year is a typing mistake. */
export const MAX_EXPIRY_YEARS_AHEAD = 20;
/** Postcodes worldwide are at most 10 characters (with a space or a dash); a little room for stray spaces. */
export const POSTCODE_MAX_LENGTH = 16;

/** A calendar month, the unit of a card's expiry (a card is good through the last day of its month). */
export interface YearMonth {
  readonly year: number;
  /** 1 to 12. */
  readonly month: number;
}

/** The four fields as typed. */
export interface CardFields {
  readonly number: string;
  readonly expiry: string;
  readonly cvc: string;
  readonly postcode: string;
}

export type CardField = keyof CardFields;

/** The number's digits, without the spaces and dashes people type between groups. */
export const cardNumberDigits = (typed: string): string => typed.replace(/[\s-]/g, '');

/** True when the digits pass the Luhn checksum every issued card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What is wrong with a typed card number, or null: 13–19 digits (spaces and dashes allowed) passing Luhn. */
export function cardNumberProblem(typed: string): string | null {
  const digits = cardNumberDigits(typed);
  if (!/^\d*$/.test(digits)) return CARD_FIELD_MESSAGES.numberInvalid;
  if (digits.length < CARD_NUMBER_MIN_DIGITS) return CARD_FIELD_MESSAGES.numberIncomplete;
  if (digits.length > CARD_NUMBER_MAX_DIGITS || !passesLuhn(digits)) return CARD_FIELD_MESSAGES.numberInvalid;
  return null;
}

/** The expiry's month and 4-digit year from 'MM/YY' (spaces around the slash, or no slash), else null. */
export function parseExpiry(typed: string): YearMonth | null {
  const match = /^\s*(\d{2})\s*\/?\s*(\d{2})\s*$/.exec(typed);
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { year: 2000 + Number(match[2]), month };
}

const monthIndex = (m: YearMonth) => m.year * 12 + (m.month - 1);

/**
 * What is wrong with a typed expiry, or null: 'MM / YY', this month or later (a card is good through its last day),
 * at most 20 years ahead. `today` is the current month where the check runs.
 */
export function cardExpiryProblem(typed: string, today: YearMonth): string | null {
  const digits = typed.replace(/[\s/]/g, '');
  if (!/^\d*$/.test(digits) || digits.length > 4) return CARD_FIELD_MESSAGES.expiryInvalid;
  if (digits.length < 4) return CARD_FIELD_MESSAGES.expiryIncomplete;
  const expiry = parseExpiry(typed);
  if (!expiry) return CARD_FIELD_MESSAGES.expiryInvalid;
  if (monthIndex(expiry) < monthIndex(today)) return CARD_FIELD_MESSAGES.expiryPast;
  if (expiry.year > today.year + MAX_EXPIRY_YEARS_AHEAD) return CARD_FIELD_MESSAGES.expiryTooFar;
  return null;
}

/** What is wrong with a typed security code, or null: 3 or 4 digits (4 on the front of an Amex). */
export function cardCvcProblem(typed: string): string | null {
  const code = typed.trim();
  if (!/^\d*$/.test(code) || code.length > 4) return CARD_FIELD_MESSAGES.cvcInvalid;
  if (code.length < 3) return CARD_FIELD_MESSAGES.cvcIncomplete;
  return null;
}

/** What is wrong with a typed postcode, or null: anything non-empty up to 16 letters, digits, spaces and dashes. */
export function postcodeProblem(typed: string): string | null {
  const code = typed.trim();
  if (code === '') return CARD_FIELD_MESSAGES.postcodeIncomplete;
  if (code.length > POSTCODE_MAX_LENGTH || !/^[\p{L}\p{N} -]+$/u.test(code)) return CARD_FIELD_MESSAGES.postcodeInvalid;
  return null;
}

/** Each field's problem, in the form's order (number, expiry, CVC, postcode); an empty object when all are good. */
export function cardFieldProblems(fields: CardFields, today: YearMonth): Partial<Record<CardField, string>> {
  const problems: Partial<Record<CardField, string>> = {};
  const number = cardNumberProblem(fields.number);
  const expiry = cardExpiryProblem(fields.expiry, today);
  const cvc = cardCvcProblem(fields.cvc);
  const postcode = postcodeProblem(fields.postcode);
  if (number) problems.number = number;
  if (expiry) problems.expiry = expiry;
  if (cvc) problems.cvc = cvc;
  if (postcode) problems.postcode = postcode;
  return problems;
}

/** The first problem in the form's order, or null: the one sentence a refused request answers with. */
export function firstCardFieldProblem(fields: CardFields, today: YearMonth): string | null {
  const problems = cardFieldProblems(fields, today);
  return problems.number ?? problems.expiry ?? problems.cvc ?? problems.postcode ?? null;
}

/** 'MM / YY' as the expiry field shows it while typing: digits only, the slash added after the month. */
export function formatExpiryInput(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** The number as the field shows it while typing: groups of four digits (at most 19 digits). */
export function formatCardNumberInput(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, CARD_NUMBER_MAX_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The zone furthest behind UTC (Baker Island, UTC−12): where a month ends last. */
const LATEST_ZONE_OFFSET_MS = 12 * 60 * 60 * 1000;

/**
 * The month it still is somewhere on Earth at `instantMs`: the month in UTC−12. A server that checks expiries against
 * it never refuses a card a device in any time zone rightly accepted in the last hours of its expiry month.
 */
export function earliestMonthOnEarth(instantMs: number): YearMonth {
  const there = new Date(instantMs - LATEST_ZONE_OFFSET_MS);
  return { year: there.getUTCFullYear(), month: there.getUTCMonth() + 1 };
}
