import { createServer, type Plugin, type Rolldown } from 'vite';

const ROOT_DIV = '<div id="root"></div>';

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
 * Prerenders the landing page into index.html (what `/` serves) and writes app.html, the same page with an empty
 * root, for every other route (the static server, nginx and the service worker answer client routes with it). The
 * landing page's hero then paints from HTML and CSS alone, before the scripts run (the paint budget of `npm run
 * bench`). In `--mode native` the shell opens on /app or /login, never on the landing page: index.html stays empty.
 */
export function prerenderLanding(): Plugin {
  let root = '';
  let native = false;
  return {
    name: 'stridestake-prerender-landing',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      native = config.mode === 'native';
    },
    async generateBundle(_options, bundle) {
      const page = bundle['index.html'] as Rolldown.OutputAsset | undefined;
      if (!page) return;
      const html = String(page.source);
      if (!html.includes(ROOT_DIV)) throw new Error(`index.html has no ${ROOT_DIV} to prerender into`);
      this.emitFile({ type: 'asset', fileName: 'app.html', source: html });
      if (native) return;
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
