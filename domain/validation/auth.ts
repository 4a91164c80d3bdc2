import { z } from 'zod';

/** The shortest password accepted (§5, §9). */
export const MIN_PASSWORD_LENGTH = 8;

/** §5/§8: the description under the 'Password too short' title. */
export const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters';

// Trimmed and lowercased before the format check, so a pasted ' Ana@Example.com ' is accepted as ana@example.com.
const email = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Please enter a valid email address' }));

/** Sign-up form and body (§2 /signup, §5): display name, email and password, all required. */
export const signUpSchema = z.object({
  display_name: z
    .string({ error: 'Display name is required' })
    .trim()
    .min(1, 'Display name is required')
    .max(50, 'Display name must be at most 50 characters'),
  email,
  password: z.string({ error: 'Password is required' }).min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT),
});

/** Sign-in form and body (§5: email and password are required; no length rule, so old passwords still work). */
export const loginSchema = z.object({
  email,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});

/** A parsed sign-up. */
export type SignUpInput = z.infer<typeof signUpSchema>;
/** A parsed sign-in. */
export type LoginInput = z.infer<typeof loginSchema>;
