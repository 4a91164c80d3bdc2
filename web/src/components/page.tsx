import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../lib/document-title.ts';
import { Icon } from './icon.tsx';

/**
 * A signed-in screen: a Back link when the screen sits under another one, a title row with optional actions, then
 * the content. The browser tab shows the screen's title (or `documentTitle`).
 */
export function Page({
  title,
  actions,
  back,
  documentTitle,
  children,
}: {
  readonly title: string;
  readonly actions?: ReactNode;
  /** The screen this one sits under (Run History under Run, XP Guide under Profile…). */
  readonly back?: string;
  readonly documentTitle?: string;
  readonly children: ReactNode;
}) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <main className="page">
      {back ? (
        <Link to={back} className="back-link">
          <Icon name="chevronLeft" size={18} />
          Back
        </Link>
      ) : null}
      <header className="page-header">
        <h1>{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </main>
  );
}
