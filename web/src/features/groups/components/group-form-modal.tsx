import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { Modal } from '../../../components/modal.tsx';
import { errorMessage } from '../../../lib/api-error.ts';

/** One text field validated by a shared schema (group name or invite code, §5), then submitted. */
export function GroupFormModal({
  title,
  label,
  submitLabel,
  schema,
  fallbackError,
  onSubmit,
  onClose,
}: {
  readonly title: string;
  readonly label: string;
  readonly submitLabel: string;
  readonly schema: z.ZodType<string>;
  readonly fallbackError: string;
  readonly onSubmit: (value: string) => Promise<unknown>;
  readonly onClose: () => void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? fallbackError);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(parsed.data);
      onClose();
    } catch (err) {
      setError(errorMessage(err, fallbackError));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={submit} className="auth-form">
        <label>
          {label}
          <input value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button primary block" disabled={busy}>
          {submitLabel}
        </button>
      </form>
    </Modal>
  );
}
