import type { Mail } from '../adapters/mail/mailer.ts';
import type { TokenKind } from './one-time-tokens.ts';

const SUBJECTS: Record<TokenKind, string> = {
  signup: 'Confirm your StrideStake account',
  magiclink: 'Your StrideStake sign-in link',
  recovery: 'Reset your StrideStake password',
  email_change: 'Confirm your new email address',
  reauthentication: 'Your StrideStake verification code',
};

const LEADS: Record<TokenKind, string> = {
  signup: 'Welcome to StrideStake! Confirm your email address to finish signing up.',
  magiclink: 'Use this link to sign in to StrideStake.',
  recovery: 'Someone (hopefully you) asked to reset your StrideStake password.',
  email_change: 'Confirm this address to make it the email of your StrideStake account.',
  reauthentication: 'Enter this code to confirm it is you.',
};

/** The mail for a one-time token: a link to GET /auth/v1/verify (none for reauthentication) and the code. */
export function tokenMail(input: {
  kind: TokenKind;
  to: string;
  publicUrl: string;
  linkToken: string;
  code: string;
  redirectTo: string;
}): Mail {
  const lines = [LEADS[input.kind], ''];
  if (input.kind !== 'reauthentication') {
    const url = new URL('/auth/v1/verify', input.publicUrl);
    url.searchParams.set('token', input.linkToken);
    url.searchParams.set('type', input.kind);
    url.searchParams.set('redirect_to', input.redirectTo);
    lines.push(`Open this link: ${url.toString()}`, '', `Or enter this code: ${input.code}`);
  } else {
    lines.push(`Your code: ${input.code}`);
  }
  lines.push('', 'The link and code work once. If you did not ask for this, you can ignore this email.');
  return { to: input.to, subject: SUBJECTS[input.kind], text: lines.join('\n') };
}

/** Tells the old address that the account's email is changing (so a hijack does not go unnoticed). */
export function emailChangeNotice(to: string, newEmail: string): Mail {
  return {
    to,
    subject: 'Your StrideStake email is changing',
    text: `A change of your account email to ${newEmail} was requested. If this was not you, reset your password now.`,
  };
}

/**
 * Sent instead of a confirmation when someone signs up with an address that already has a confirmed account: the
 * answer to the sign-up looks the same either way (no enumeration), and the owner learns of the attempt.
 */
export function accountExistsNotice(to: string, appUrl: string): Mail {
  return {
    to,
    subject: 'Your StrideStake account already exists',
    text: [
      'Someone (hopefully you) tried to sign up for StrideStake with this email address, which already has an account.',
      '',
      `Sign in at ${new URL('/login', appUrl)} (you can reset your password there if you forgot it).`,
      '',
      'If this was not you, you can ignore this email: nothing has changed.',
    ].join('\n'),
  };
}

/** What was asked for when there was nothing to send (see nothingToSendNotice). */
export type UnansweredRequest = 'recovery' | 'magiclink' | 'confirmation';

const UNANSWERED: Record<UnansweredRequest, string> = {
  recovery: 'asked to reset the password of a StrideStake account with this email address, but no account uses it.',
  magiclink: 'asked for a StrideStake sign-in link for this email address, but no account uses it.',
  confirmation:
    'asked us to resend a StrideStake confirmation for this email address, but nothing is waiting to be confirmed.',
};

/**
 * Sent when a recovery, a sign-in link or a resend was asked for an address with nothing to send: every such
 * request sends exactly one mail, so neither the answer nor the work done tells whether the address has an account.
 */
export function nothingToSendNotice(to: string, request: UnansweredRequest, appUrl: string): Mail {
  return {
    to,
    subject: 'Your StrideStake request',
    text: [
      `Someone (hopefully you) ${UNANSWERED[request]}`,
      '',
      `To create an account, sign up at ${new URL('/signup', appUrl)}. If you already have one, sign in at ${new URL('/login', appUrl)}.`,
      '',
      'If this was not you, you can ignore this email.',
    ].join('\n'),
  };
}
