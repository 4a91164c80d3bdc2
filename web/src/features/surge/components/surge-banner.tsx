import { useEffect, useState } from 'react';
import { formatMultiplier } from '../../../../../domain/gamification/xp.ts';
import { formatDuration } from '../../../lib/format.ts';
import { useActiveSurge } from '../api/get-active-surge.ts';
import { Icon } from '../../../components/icon.tsx';

/** The surge banner (§4): shown while a surge is active, counting down every second to 'Expired'. */
export function SurgeBanner() {
  const { data: surge } = useActiveSurge();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!surge) return;
    const id = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(id);
  }, [surge]);
  if (surge?.status !== 'active') return null;
  const left = Math.floor((Date.parse(surge.end_time) - now) / 1000);
  return (
    <section className="surge-banner" aria-label="Surge">
      <strong>
        <Icon name="bolt" size={16} /> {formatMultiplier(surge.xp_multiplier)} XP Surge!
      </strong>
      <span>{left > 0 ? `Ends in ${formatDuration(left)}` : 'Expired'}</span>
    </section>
  );
}
