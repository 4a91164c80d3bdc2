import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

interface Toast {
  readonly id: number;
  readonly title: string;
  readonly description?: string;
  readonly tone: 'error' | 'success';
}

interface ToastApi {
  show(toast: Omit<Toast, 'id'>): void;
  /** Takes down the failure toasts: a later success makes them stale. */
  clearErrors(): void;
}

const ToastContext = createContext<ToastApi | null>(null);

/**
 * Short messages at the top of the screen (§8 toasts); each disappears after 5 s. A failure's toast does not outlive
 * a later success: a success toast, a successful mutation (saving, joining, reacting…) or a caller's `clearErrors`
 * (sign-in, which is not a mutation) takes the error toasts down, so "Sign in failed" never sits over the dashboard.
 */
export function ToastProvider({ children }: { readonly children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const clearErrors = useCallback(() => setToasts((list) => list.filter((t) => t.tone !== 'error')), []);
  const show = useCallback((toast: Omit<Toast, 'id'>) => {
    const id = Date.now() + Math.random();
    setToasts((list) => [
      ...(toast.tone === 'success' ? list.filter((t) => t.tone !== 'error') : list),
      { ...toast, id },
    ]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), 5_000);
  }, []);
  const client = useQueryClient();
  useEffect(
    () =>
      client.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') clearErrors();
      }),
    [client, clearErrors],
  );
  const api = useMemo(() => ({ show, clearErrors }), [show, clearErrors]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-live="assertive">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`} role="alert">
            <strong>{t.title}</strong>
            {t.description ? <span>{t.description}</span> : null}
            <button
              type="button"
              className="toast-close"
              aria-label="Dismiss"
              onClick={() => setToasts((list) => list.filter((x) => x.id !== t.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Shows toasts; throws outside the provider. */
export function useToast(): ToastApi {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToast must be used within a ToastProvider');
  return value;
}
