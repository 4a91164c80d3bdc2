import { useEffect, useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast.tsx';
import {
  type NotificationPreferences,
  useNotificationPreferences,
  useUpdateNotificationPreferences,
} from '../api/notification-preferences.ts';
import { sendTestNotification } from '../api/send-test-notification.ts';

/** §9: saved indicators show for 3 s, the test-sent indicator for 5 s. */
const SAVED_MS = 3_000;
const TEST_SENT_MS = 5_000;

const REMINDERS = [
  {
    flag: 'upcoming_goal_enabled',
    time: 'upcoming_goal_time',
    label: 'Upcoming goal reminder',
    hint: 'The day before',
  },
  { flag: 'midweek_update_enabled', time: 'midweek_update_time', label: 'Mid-week update', hint: 'Wednesday' },
  { flag: 'ending_soon_enabled', time: 'ending_soon_time', label: 'Ending soon reminder', hint: 'Sunday' },
] as const;

/** A flag that turns itself off after `ms`. */
function useFlash(ms: number): [boolean, () => void] {
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (!on) return;
    const id = setTimeout(() => setOn(false), ms);
    return () => clearTimeout(id);
  }, [on, ms]);
  return [on, () => setOn(true)];
}

/** Notification settings (§2): three reminder switches with their times, Save, and Send test. */
export function NotificationSettingsModal({ onClose }: { readonly onClose: () => void }) {
  const stored = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const toast = useToast();
  const [draft, setDraft] = useState<NotificationPreferences | null>(null);
  const [saved, flashSaved] = useFlash(SAVED_MS);
  const [testSent, flashTestSent] = useFlash(TEST_SENT_MS);
  const [testing, setTesting] = useState(false);
  const form = draft ?? stored.data ?? null;

  const save = () => {
    if (!form) return;
    update.mutate(form, {
      onSuccess: flashSaved,
      onError: () => toast.show({ tone: 'error', title: 'Failed to save notification settings' }),
    });
  };
  const test = async () => {
    setTesting(true);
    try {
      await sendTestNotification();
      flashTestSent();
    } catch {
      toast.show({ tone: 'error', title: 'Failed to send test notification' });
    } finally {
      setTesting(false);
    }
  };

  return (
    <Modal title="Notification Settings" onClose={onClose}>
      {!form ? (
        <p className="muted">Loading…</p>
      ) : (
        <div className="settings-form">
          {REMINDERS.map((r) => (
            <div key={r.flag} className="setting-row">
              <label className="switch-label">
                <input
                  type="checkbox"
                  role="switch"
                  checked={form[r.flag]}
                  aria-checked={form[r.flag]}
                  onChange={(e) => setDraft({ ...form, [r.flag]: e.target.checked })}
                />
                <span>
                  {r.label}
                  <span className="muted small"> · {r.hint}</span>
                </span>
              </label>
              <label className="time-label">
                <span className="visually-hidden">{r.label} time</span>
                <input
                  type="time"
                  aria-label={`${r.label} time`}
                  value={form[r.time].slice(0, 5)}
                  disabled={!form[r.flag]}
                  onChange={(e) => setDraft({ ...form, [r.time]: `${e.target.value}:00` })}
                />
              </label>
            </div>
          ))}
          <footer className="wizard-actions">
            <button type="button" className="button ghost" onClick={test} disabled={testing}>
              {testSent ? 'Test sent!' : 'Send test'}
            </button>
            <button type="button" className="button primary" onClick={save} disabled={update.isPending}>
              {saved ? 'Saved!' : 'Save'}
            </button>
          </footer>
        </div>
      )}
    </Modal>
  );
}
