import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast.tsx';
import {
  type NotificationPreferences,
  useNotificationPreferences,
  useUpdateNotificationPreferences,
} from '../api/notification-preferences.ts';
import { sendTestNotification } from '../api/send-test-notification.ts';
import { DevicePushRow } from './device-push-row.tsx';

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
  const client = useQueryClient();
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
      // The test arrives as an in-app notification: look now rather than at the next 30 s poll.
      void client.invalidateQueries({ queryKey: ['notifications'] });
    } catch {
      toast.show({ tone: 'error', title: 'Failed to send test notification' });
    } finally {
      setTesting(false);
    }
  };

  return (
    <Modal
      title="Notification Settings"
      onClose={onClose}
      footer={
        form ? (
          <>
            <button type="button" className="button ghost" onClick={test} disabled={testing}>
              {testSent ? 'Test sent!' : 'Send test'}
            </button>
            <button type="button" className="button primary" onClick={save} disabled={update.isPending}>
              {saved ? 'Saved!' : 'Save'}
            </button>
          </>
        ) : null
      }
    >
      {!form ? (
        <p className="muted">Loading…</p>
      ) : (
        <div className="settings-form">
          <p className="muted small">Reminders come at the time you pick, in your timezone.</p>
          {REMINDERS.map((r) => (
            <div key={r.flag} className={form[r.flag] ? 'setting-row' : 'setting-row off'}>
              <label className="switch-label">
                <span className="setting-text">
                  <strong>{r.label}</strong>
                  <span className="muted small">{r.hint}</span>
                </span>
                <input
                  type="checkbox"
                  role="switch"
                  className="switch"
                  checked={form[r.flag]}
                  aria-checked={form[r.flag]}
                  onChange={(e) => setDraft({ ...form, [r.flag]: e.target.checked })}
                />
              </label>
              <label className="time-label">
                <span className="muted small" aria-hidden="true">
                  at
                </span>
                <input
                  type="time"
                  className="time-input"
                  aria-label={`${r.label} time`}
                  value={form[r.time].slice(0, 5)}
                  disabled={!form[r.flag]}
                  onChange={(e) => setDraft({ ...form, [r.time]: `${e.target.value}:00` })}
                />
              </label>
            </div>
          ))}
          <DevicePushRow />
        </div>
      )}
    </Modal>
  );
}
