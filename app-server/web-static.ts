import { isAbsolute, relative } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

/**
 * Serves the built web app (web/dist) as a single-page app: files as they are, and index.html for every other GET
 * so client-side routes (/app, /goals/…) survive a reload. `npm start` runs it beside the API on WEB_PORT.
 */
export function webAppServer(distDir: string) {
  // serveStatic resolves `root` against the working directory.
  const root = isAbsolute(distDir) ? relative(process.cwd(), distDir) || '.' : distDir;
  const app = new Hono();
  app.use('/assets/*', async (c, next) => {
    await next();
    // Vite names assets by content hash, so they never change under the same URL.
    if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.use('*', serveStatic({ root }));
  app.get('*', serveStatic({ root, path: 'index.html' }));
  return app;
}
