/**
 * The API's type for typed clients (the web app's `web/src/lib/api-types.ts`), and nothing else: a type-only
 * module, so a client importing it takes no server code into its bundle. The lint rule that keeps web/ away from
 * app-server/ makes an exception for this file alone.
 */
export type { AppType } from './app.ts';
