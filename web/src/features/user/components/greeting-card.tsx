import { Temporal } from 'temporal-polyfill';
import { daysLeftInWeek, daysLeftText } from '../../../../../domain/shared/days-left.ts';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { formatCount } from '../../../lib/format.ts';
import { useMe } from '../api/get-me.ts';
import { useXp } from '../api/get-xp.ts';

function timeOfDayGreeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** The dashboard header (§2): greeting with the display name, level and tier, XP bar, days left this week. */
export function GreetingCard() {
  const me = useMe();
  const xp = useXp();
  if (me.isPending) return <section className="card greeting skeleton" aria-busy="true" />;
  if (!me.data) return null;
  const zone = me.data.timezone;
  const now = Temporal.Now.instant();
  const hour = now.toZonedDateTimeISO(zone).hour;
  const days = daysLeftText(daysLeftInWeek(now, zone));
  const info = xp.data;
  return (
    <section className="card greeting">
      <div className="greeting-top">
        <div>
          <p className="muted small">{timeOfDayGreeting(hour)},</p>
          <h1 className="greeting-name">{me.data.display_name}</h1>
          <p className="level-line">
            <span className="level-pill">Level {info?.level_label ?? me.data.level}</span>
            <span className="tier">{info?.tier ?? me.data.tier}</span>
          </p>
        </div>
        <div className="days-left">
          <strong>{days.headline}</strong>
          {days.detail ? <span>{days.detail}</span> : <span>this week</span>}
        </div>
      </div>
      {info ? (
        <div className="xp">
          <ProgressBar
            label="XP toward next level"
            fraction={info.xp_for_level === 0 ? 1 : info.xp_into_level / info.xp_for_level}
          />
          <p className="muted small">
            {formatCount(info.total_xp)} XP
            {info.xp_for_level === 0
              ? ' · MAX level'
              : ` · ${formatCount(info.xp_to_next_level)} XP to level ${info.level + 1}`}
          </p>
        </div>
      ) : null}
    </section>
  );
}
