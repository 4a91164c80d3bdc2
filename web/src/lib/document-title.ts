import { useEffect } from 'react';

/** The product's name, after each screen's own in the browser tab and the history: 'Goals · StrideStake'. */
export const APP_NAME = 'StrideStake';

/** The document title for a screen. */
export const documentTitle = (screen: string | null): string => (screen ? `${screen} · ${APP_NAME}` : APP_NAME);

/** Sets the browser tab's title while the screen is shown. */
export function useDocumentTitle(screen: string | null): void {
  useEffect(() => {
    document.title = documentTitle(screen);
  }, [screen]);
}
