import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nginxHeaderLines } from '../http/security-headers.ts';

/**
 * `node app-server/cli/nginx-security-headers.ts <web dist> <output file>`: writes the web app's header policy
 * (app-server/http/security-headers.ts) as nginx `add_header` lines, with the built pages' inline-script hashes, for
 * deploy/nginx.conf to include. Reads APP_URL, PUBLIC_URL and STRIPE_SECRET_KEY from the environment, as the API does
 * (only these: the web-assets step needs no database or secrets beyond knowing whether Stripe is on).
 */
const [dist, output] = process.argv.slice(2);
if (!dist || !output) {
  process.stderr.write('usage: nginx-security-headers.ts <web dist> <output file>\n');
  process.exit(2);
}
const env = (name: string) => (process.env[name] ? process.env[name] : undefined);
const pages = readdirSync(dist)
  .filter((name) => name.endsWith('.html'))
  .map((name) => readFileSync(join(dist, name), 'utf8'));
const lines = nginxHeaderLines(
  {
    APP_URL: env('APP_URL') ?? 'http://localhost:5173',
    PUBLIC_URL: env('PUBLIC_URL') ?? 'http://localhost:3001',
    STRIPE_SECRET_KEY: env('STRIPE_SECRET_KEY'),
  },
  pages,
);
writeFileSync(
  output,
  `# Written by app-server/cli/nginx-security-headers.ts at deploy; do not edit.\n${lines.join('\n')}\n`,
);
