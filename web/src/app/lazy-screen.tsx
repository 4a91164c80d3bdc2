import { type ComponentType, lazy } from 'react';

/** A screen in its own chunk, loaded on its first render or earlier through `preload`. */
export interface LazyScreen {
  (): React.JSX.Element;
  /** Starts loading the screen's chunk (once); its first render then needs no Suspense fallback. */
  preload(): Promise<void>;
}

/**
 * React.lazy, plus a `preload` for a screen known to come next (the one the app opens on): once its module is in, the
 * screen renders at once, where React.lazy would still suspend its first render and paint the fallback first.
 */
export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const start = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per screen, at module level, as React.lazy's are.
  const Screen = () => {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  };
  return Object.assign(Screen, { preload: () => start().then(() => undefined) });
}
