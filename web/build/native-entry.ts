import type { Plugin } from 'vite';

/**
 * In `--mode native` (npm run native:sync) the page's entry is the native shell's (native/src/main.ts), which
 * provides the shell's implementations of the web app's capabilities and then loads the web app's own entry. The web
 * build keeps web/src/main.tsx, so it carries no native code: native/ depends on web/, never the reverse.
 */
export function nativeEntry(): Plugin {
  let native = false;
  return {
    name: 'stridestake-native-entry',
    configResolved(config) {
      native = config.mode === 'native';
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!native) return html;
        const entry = '<script type="module" src="/src/main.tsx"></script>';
        if (!html.includes(entry)) throw new Error('index.html no longer loads /src/main.tsx: update native-entry.ts');
        return html.replace(entry, '<script type="module" src="../native/src/main.ts"></script>');
      },
    },
  };
}
