import { useState } from 'react';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDuration, formatPace } from '../../../lib/format.ts';
import { useChallenges } from '../api/get-challenges.ts';

const TABS = [
  { id: 'week', label: 'This Week' },
  { id: 'streaks', label: 'Streaks' },
  { id: 'pace', label: 'Best Pace' },
] as const;
type Tab = (typeof TABS)[number]['id'];

interface Line {
  readonly user_id: string;
  readonly display_name: string;
  readonly value: string;
  readonly detail?: string;
  /** False for a runner with no time to rank by (Best Pace without a 5K or 10K): no rank, '—'. */
  readonly ranked: boolean;
}

/** Team challenges (§2) with tabs This Week, Streaks and Best Pace; nulls read as '—'. */
export function TeamChallenges({ groupId }: { readonly groupId: string }) {
  const [tab, setTab] = useState<Tab>('week');
  const challenges = useChallenges(groupId);
  const unit = useDistanceUnit();
  const c = challenges.data;
  const lines: Line[] = !c
    ? []
    : tab === 'week'
      ? c.weeklyDistance.map((l) => ({ ...l, value: formatDistance(l.distance_km, unit), ranked: true }))
      : tab === 'streaks'
        ? c.streaks.map((l) => ({
            ...l,
            value: `${l.current_streak} wk`,
            detail: `best ${l.longest_streak} wk`,
            ranked: true,
          }))
        : c.fastestPaces.map((l) =>
            l.fastest_5k_pace === null && l.fastest_10k_pace === null
              ? { ...l, value: '—', ranked: false }
              : {
                  ...l,
                  value: `5K ${formatPace(l.fastest_5k_pace, unit)}`,
                  detail: `10K ${formatPace(l.fastest_10k_pace, unit)}${
                    l.fastest_10k_time === null ? '' : ` · ${formatDuration(l.fastest_10k_time)}`
                  }`,
                  ranked: true,
                },
          );
  // Ranks count only the lines that have something to rank by.
  const ranks = lines.reduce<(number | null)[]>((all, l) => {
    const last = all.reduce<number>((n, r) => (r === null ? n : r), 0);
    all.push(l.ranked ? last + 1 : null);
    return all;
  }, []);
  return (
    <section className="card" aria-label="Team challenges">
      <h2>Team Challenges</h2>
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={tab === t.id ? 'tab-button active' : 'tab-button'}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {challenges.isPending ? (
        <p className="muted small">Loading…</p>
      ) : lines.length === 0 ? (
        <p className="muted small">No runs yet this week.</p>
      ) : (
        <ol className="list">
          {lines.map((l, i) => (
            <li key={l.user_id} className="list-row">
              <span>
                {ranks[i] === null ? (
                  <strong>
                    <span aria-hidden="true">—</span>
                    <span className="visually-hidden">No rank</span>
                  </strong>
                ) : (
                  <strong>#{ranks[i]}</strong>
                )}{' '}
                {l.display_name}
              </span>
              <span>
                <strong>{l.value}</strong>
                {l.detail ? <span className="muted small"> · {l.detail}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
