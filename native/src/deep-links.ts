import { App, type AppPlugin } from '@capacitor/app';

/** The plugin call this implementation makes (a test passes a fake). */
export type AppPluginLike = Pick<AppPlugin, 'addListener'>;

/**
 * `appUrlOpen` as the platform's URL listener: the OS hands the app `stridestake://…` links (the auth callback,
 * §2). The returned function removes the listener once the plugin has registered it.
 */
export function capacitorDeepLinks(plugin: AppPluginLike = App) {
  return (listener: (url: string) => void): (() => void) => {
    const handle = plugin.addListener('appUrlOpen', (event) => listener(event.url));
    return () => {
      handle.then((h) => h.remove()).catch(() => {});
    };
  };
}
