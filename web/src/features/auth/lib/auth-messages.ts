/** GoTrue's mail rate-limit sentence (over_email_send_rate_limit), as the auth service words it. */
const WAIT = /^For security purposes, you can only request this after (\d+) seconds?\.$/;

/**
 * What an auth failure says to the runner: the server's sentence, except the raw mail rate-limit one, which becomes
 * a friendly "Please wait N seconds before asking for another email."
 */
export function authFailureMessage(error: unknown, fallback = 'Please try again.'): string {
  const message = error instanceof Error && error.message ? error.message : fallback;
  const wait = WAIT.exec(message.trim());
  if (wait) {
    const seconds = Number(wait[1]);
    return `Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} before asking for another email.`;
  }
  return message;
}

/** GoTrue's sign-in refusal for an account whose e-mail is not confirmed yet. */
export const isEmailNotConfirmed = (error: unknown): boolean =>
  error instanceof Error &&
  ((error as { code?: string }).code === 'email_not_confirmed' || error.message === 'Email not confirmed');
