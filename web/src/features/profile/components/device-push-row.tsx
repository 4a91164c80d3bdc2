import { useEffect, useState } from 'react';
import { platform } from '../../../lib/platform/index.ts';
import type { PushPermission } from '../../../lib/platform/push.ts';
import { enablePush } from '../../../lib/platform/push-sync.ts';

/**
 * Push on this device, in the notification settings: on the web the browser's permission is asked only here, when
 * the user turns it on. Hidden where push is unsupported (no Web Push key on the server, or a browser without it):
 * reminders then arrive as in-app notifications.
 */
export function DevicePushRow() {
  const [permission, setPermission] = useState<PushPermission | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    platform()
      .push.checkPermission()
      .then((p) => live && setPermission(p))
      .catch(() => live && setPermission('unsupported'));
    return () => {
      live = false;
    };
  }, []);
  if (permission === null || permission === 'unsupported') return null;
  const turnOn = async () => {
    setBusy(true);
    try {
      setPermission(await enablePush());
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="setting-row">
      <span>Push notifications on this device</span>
      {permission === 'granted' ? (
        <span className="muted">On</span>
      ) : permission === 'denied' ? (
        <span className="muted small">Blocked in your browser settings</span>
      ) : (
        <button type="button" className="button ghost small" onClick={turnOn} disabled={busy}>
          Turn On
        </button>
      )}
    </div>
  );
}
