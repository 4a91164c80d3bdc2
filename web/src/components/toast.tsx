import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

interface Toast {
  readonly id: number;
  readonly title: string;
  readonly description?: string;
  readonly tone: 'error' | 'success';
}

interface ToastApi {
  show(toast: Omit<Toast, 'id'>): void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** Short messages at the top of the screen (§8 toasts); each disappears after 5 s. */
export function ToastProvider({ children }: { readonly children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((toast: Omit<Toast, 'id'>) => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list, { ...toast, id }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), 5_000);
  }, []);
  const api = useMemo(() => ({ show }), [show]);
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
