import { useState } from 'react';
import { TIME_ZONE_OPTIONS, timeZoneChangeError } from '../../../../../domain/validation/time-zone.ts';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useUpdateTimezone } from '../api/update-timezone.ts';

/** The timezone modal (§2): 16 options; saving the same zone is blocked with 'No changes to save' (§5). */
export function TimezoneModal({ current, onClose }: { readonly current: string; readonly onClose: () => void }) {
  const [zone, setZone] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateTimezone();
  const toast = useToast();
  const save = () => {
    const blocked = timeZoneChangeError(current, zone);
    if (blocked) {
      setError(blocked);
      return;
    }
    update.mutate(zone, {
      onSuccess: onClose,
      onError: () => toast.show({ tone: 'error', title: 'Failed to update timezone' }),
    });
  };
  return (
    <Modal title="Timezone" onClose={onClose}>
      <label>
        Your timezone
        <select value={zone} onChange={(e) => setZone(e.target.value)}>
          {TIME_ZONE_OPTIONS.some((o) => o.value === current) ? null : <option value={current}>{current}</option>}
          {TIME_ZONE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="button" className="button primary block" onClick={save} disabled={update.isPending}>
        Save
      </button>
    </Modal>
  );
}
