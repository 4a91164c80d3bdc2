import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The dialogs open now, newest last: Escape and the focus trap belong to the newest only. */
const open: symbol[] = [];

/**
 * A body taller than the dialog scrolls; keyboard users need to reach it to scroll it, so it takes the focus
 * (tabindex 0) exactly while it overflows.
 */
function useScrollableFocus(body: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const update = () => {
      if (el.scrollHeight > el.clientHeight + 1) el.tabIndex = 0;
      else el.removeAttribute('tabindex');
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    const mutations = new MutationObserver(update);
    mutations.observe(el, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      mutations.disconnect();
    };
  }, [body]);
}

/** The app's root is inert while a dialog is up: clicks, focus and assistive technology stay in the dialog. */
function setAppInert(inert: boolean): void {
  const root = document.getElementById('root');
  if (root) root.inert = inert;
}

/**
 * A dialog over the page (a sheet from the bottom on a phone, centred on a wide screen). Its title and its `footer`
 * (the step's actions) stay in view while the body scrolls. Focus moves into it and stays there (Tab cycles),
 * Escape and the backdrop close it, and focus goes back to where it was when it closes.
 */
export function Modal({
  title,
  onClose,
  children,
  footer,
}: {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly footer?: ReactNode;
}) {
  const dialog = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useScrollableFocus(body);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // Once per dialog: the title names it in the stack only, a new step's title is the same dialog.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mounted once per dialog
  useEffect(() => {
    const me = Symbol(title);
    open.push(me);
    setAppInert(true);
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const inBody = FOCUSABLE.split(', ')
      .map((selector) => `.modal-body ${selector}`)
      .join(', ');
    const first = dialog.current?.querySelector<HTMLElement>(inBody);
    (first ?? dialog.current)?.focus({ preventScroll: true });
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && open[open.length - 1] === me) {
        e.stopPropagation();
        closeRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      open.splice(open.indexOf(me), 1);
      if (open.length === 0) setAppInert(false);
      if (before?.isConnected) before.focus({ preventScroll: true });
    };
  }, []);

  // A new step of the same dialog (the wizard) replaces the focused control: focus goes to the dialog, which
  // names the step, rather than to the page behind.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step (its title) changes
  useEffect(() => {
    if (dialog.current && !dialog.current.contains(document.activeElement))
      dialog.current.focus({ preventScroll: true });
  }, [title]);

  // Tab and Shift+Tab cycle inside the dialog.
  const trap = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab' || !dialog.current) return;
    const items = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (el) => el.offsetParent !== null || el === document.activeElement,
    );
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const firstItem = items[0]!;
    const lastItem = items[items.length - 1]!;
    if (e.shiftKey && (document.activeElement === firstItem || document.activeElement === dialog.current)) {
      e.preventDefault();
      lastItem.focus();
    } else if (!e.shiftKey && document.activeElement === lastItem) {
      e.preventDefault();
      firstItem.focus();
    }
  };

  return createPortal(
    <div className="modal-backdrop">
      {/* A real button under the dialog, so a tap outside closes it without a click handler on a plain div. */}
      <button type="button" className="modal-scrim" aria-label="Close dialog" tabIndex={-1} onClick={onClose} />
      <div
        ref={dialog}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={trap}
      >
        <header className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button modal-close" aria-label="Close" onClick={onClose}>
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </header>
        <div className="modal-body" ref={body}>
          {children}
        </div>
        {footer ? <footer className="modal-footer wizard-actions">{footer}</footer> : null}
      </div>
    </div>,
    document.body,
  );
}
