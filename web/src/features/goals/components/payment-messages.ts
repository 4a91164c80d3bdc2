/** §8 payment form messages. */
export const SAVE_FAILED = 'Failed to save payment method';
export const PROVIDER_FALLBACK = 'An error occurred';
export const UNEXPECTED = 'An unexpected error occurred';
export const STRIPE_NOT_CONFIGURED = 'Stripe is not configured. Please contact support.';
