import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, createServer, type Plugin, type Rolldown } from 'vite';

const ROOT_DIV = '<div id="root"></div>';
const LANDING_ENTRY = '<script type="module" src="/src/main.tsx"></script>';
const APP_ENTRY = '<script type="module" src="/src/app-main.tsx"></script>';

/**
 * src/first-requests-inline.ts as one classic script (no imports) for the page's head: it runs as soon as it is
 * parsed, before any module script could. Built with this build's mode, so it reads the same VITE_API_URL.
 */
async function firstRequestsScript(root: string, mode: string): Promise<string> {
  const result = await build({
    configFile: false,
    root,
    mode,
    logLevel: 'error',
    build: {
      write: false,
      copyPublicDir: false,
      minify: true,
      lib: {
        entry: resolve(root, 'src/first-requests-inline.ts'),
        formats: ['iife'],
        name: 'stridestakeFirstRequests',
      },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput | undefined;
  const code = output?.output[0]?.code;
  if (!code) throw new Error('src/first-requests-inline.ts built to nothing');
  return code.replaceAll('</script', '<\\/script');
}

/**
 * app.html as built: index.html (one head for both pages) with the app's entry in place of the landing page's, and
 * the first screen's API reads started by an inline script before the page's stylesheet and scripts (a script after
 * a stylesheet would wait for it).
 */
async function appPage(root: string, mode: string): Promise<string> {
  const html = readFileSync(resolve(root, 'index.html'), 'utf8');
  if (!html.includes(LANDING_ENTRY))
    throw new Error('index.html no longer loads /src/main.tsx: update prerender-landing.ts');
  if (!html.includes('<title>')) throw new Error('index.html has no <title> to put the first requests before');
  const script = `<script>${await firstRequestsScript(root, mode)}</script>\n    `;
  return html.replace(LANDING_ENTRY, APP_ENTRY).replace('<title>', () => `${script}<title>`);
}

/**
 * The page's stylesheets written into it: the prerendered landing page paints with the HTML alone, with no
 * render-blocking request before it (the stylesheet stays a file for app.html, where it is cached as immutable).
 */
function inlineStylesheets(html: string, bundle: Rolldown.OutputBundle): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, fileName: string) => {
    const sheet = bundle[fileName];
    if (sheet?.type !== 'asset') return tag;
    return `<style>${String(sheet.source).replaceAll('</style', '<\\/style')}</style>`;
  });
}

/**
 * Prerenders the landing page into index.html (what `/` serves) and builds app.html, the same page with an empty
 * root and the app's own entry (src/app-main.tsx), for every other route (the static server, nginx and the service
 * worker answer client routes with it). The landing page's hero then paints from HTML and CSS alone, before the
 * scripts run, and the app's first screen loads with its page, not behind the landing page's script (the paint
 * budgets of `npm run bench`). In `--mode native` the shell opens on /app or /login, never on the landing page, with
 * main.tsx: index.html stays empty, and app.html is a copy of it.
 */
export function prerenderLanding(): Plugin {
  let root = '';
  let mode = '';
  let native = false;
  return {
    name: 'stridestake-prerender-landing',
    apply: 'build',
    enforce: 'post',
    config(config, env) {
      // app.html is a page of its own on the web; the native shell opens on index.html alone.
      if (env.mode === 'native') return;
      const base = resolve(config.root ?? process.cwd());
      return {
        build: { rolldownOptions: { input: { index: resolve(base, 'index.html'), app: resolve(base, 'app.html') } } },
      };
    },
    configResolved(config) {
      root = config.root;
      mode = config.mode;
      native = config.mode === 'native';
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html, { filename }) {
        return filename === resolve(root, 'app.html') ? appPage(root, mode) : html;
      },
    },
    async generateBundle(_options, bundle) {
      const page = bundle['index.html'] as Rolldown.OutputAsset | undefined;
      if (!page) return;
      const html = String(page.source);
      if (!html.includes(ROOT_DIV)) throw new Error(`index.html has no ${ROOT_DIV} to prerender into`);
      if (native) {
        this.emitFile({ type: 'asset', fileName: 'app.html', source: html });
        return;
      }
      // The landing page's modules, loaded as Node modules through Vite's SSR loader.
      const server = await createServer({
        root,
        configFile: false,
        logLevel: 'error',
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderLanding } = (await server.ssrLoadModule('/src/app/landing-prerender.tsx')) as {
          renderLanding(): string;
        };
        page.source = inlineStylesheets(html, bundle).replace(ROOT_DIV, `<div id="root">${renderLanding()}</div>`);
      } finally {
        await server.close();
      }
    },
  };
}
