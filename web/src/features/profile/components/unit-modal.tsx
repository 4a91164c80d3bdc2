import { useState } from 'react';
import type { DistanceUnit } from '../../../../../domain/shared/units.ts';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useUpdatePreferences } from '../api/update-preferences.ts';

/** The distance-unit modal (§2): km or mi. */
export function UnitModal({ current, onClose }: { readonly current: DistanceUnit; readonly onClose: () => void }) {
  const [unit, setUnit] = useState<DistanceUnit>(current);
  const update = useUpdatePreferences();
  const toast = useToast();
  const save = () =>
    update.mutate(
      { distance_unit: unit },
      { onSuccess: onClose, onError: () => toast.show({ tone: 'error', title: 'Failed to save distance unit' }) },
    );
  return (
    <Modal title="Distance Unit" onClose={onClose}>
      <fieldset className="choice-row">
        <legend className="visually-hidden">Distance unit</legend>
        {(['km', 'mi'] as const).map((u) => (
          <button
            key={u}
            type="button"
            aria-pressed={unit === u}
            className={unit === u ? 'choice active' : 'choice'}
            onClick={() => setUnit(u)}
          >
            <strong>{u === 'km' ? 'Kilometres' : 'Miles'}</strong>
          </button>
        ))}
      </fieldset>
      <button type="button" className="button primary block" onClick={save} disabled={update.isPending}>
        Save
      </button>
    </Modal>
  );
}
