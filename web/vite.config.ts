import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { FIRST_LOAD_CHUNKS, firstLoadChunkGroups } from './build/first-load-chunks.ts';
import { nativeEntry } from './build/native-entry.ts';
import { precompress } from './build/precompress.ts';
import { prerenderLanding } from './build/prerender-landing.ts';

const BRAND = '#0f766e';

const ROOT = import.meta.dirname;

// Root is web/ (`vite build web`); the shared domain/ folder sits one level up, so the dev server may read it.
export default defineConfig({
  plugins: [
    react(),
    // The native shell's build starts at native/src/main.ts (which loads the web app after providing its platform).
    nativeEntry(),
    // `/` paints the landing page from HTML; app.html is the page for every other route.
    prerenderLanding(),
    // Installable and offline: the web app manifest, and the service worker of src/sw.ts with the build's file list.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      // lib/service-worker.ts registers it after the page has loaded (and not in the native shell).
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'StrideStake',
        short_name: 'StrideStake',
        description: 'Weekly running goals with money on the line, for a charity you choose.',
        start_url: '/app',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#f1f5f9',
        theme_color: BRAND,
        categories: ['health', 'fitness', 'sports'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      injectManifest: {
        // A classic worker: it imports public/push-sw.js with importScripts.
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // The link-preview picture is for other sites; push-sw.js is imported by the worker itself.
        globIgnores: ['og-image.png', 'push-sw.js', '**/*.map'],
      },
    }),
    precompress(),
  ],
  server: {
    port: 5173,
    fs: { allow: ['..'] },
    // As `npm start` serves the built app (app-server/web-with-api.ts): /api/… is the API, on PORT (3001).
    proxy: {
      '/api': {
        target: `http://localhost:${process.env.PORT || 3001}`,
        rewrite: (path) => path.replace(/^\/api(?=\/|$)/, '') || '/',
      },
    },
  },
  preview: { port: 5173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // The pages' inputs: index.html, and app.html but in the native build (build/prerender-landing.ts).
      output: {
        codeSplitting: { groups: firstLoadChunkGroups(ROOT) },
        // Chrome's explicit compile hint: compile every function of the first-load chunks at once, rather than each
        // on its first call (a second parse); on a slow phone the app's first render is mostly such calls.
        postBanner: (chunk) => (FIRST_LOAD_CHUNKS.has(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
      },
    },
  },
});
