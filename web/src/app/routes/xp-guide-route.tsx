import { MAX_LEVEL, levelStartXp } from '../../../../domain/gamification/levels.ts';
import { TIERS } from '../../../../domain/gamification/tiers.ts';
import { XP_PER_BADGE, XP_PER_GOAL, XP_PER_STREAK_WEEK } from '../../../../domain/gamification/xp.ts';
import { Page } from '../../components/page.tsx';
import { useDistanceUnit } from '../../lib/distance-unit.ts';
import { xpPerUnit } from '../../lib/xp-per-unit.ts';

/** The XP guide (§2): earning rules and the tier list, from the shared domain constants. */
export function XpGuideRoute() {
  const unit = useDistanceUnit();
  const perUnit = xpPerUnit(unit);
  return (
    <Page title="XP Guide" back="/profile">
      <section className="card">
        <h2>How to earn XP</h2>
        <ul className="list">
          <li className="list-row">
            <span>Every {unit === 'mi' ? 'mile' : 'km'} you run</span>
            <strong>
              {perUnit.exact ? '' : 'about '}
              {perUnit.xp} XP
            </strong>
          </li>
          <li className="list-row">
            <span>Goal completed</span>
            <strong>{XP_PER_GOAL} XP</strong>
          </li>
          <li className="list-row">
            <span>Each streak week</span>
            <strong>{XP_PER_STREAK_WEEK} XP</strong>
          </li>
          <li className="list-row">
            <span>Badge earned</span>
            <strong>{XP_PER_BADGE} XP</strong>
          </li>
        </ul>
        <p className="muted small">Surge events multiply the XP of your runs while they last.</p>
      </section>
      <section className="card">
        <h2>Tiers</h2>
        <ul className="list">
          {TIERS.map((tier) => (
            <li key={tier.name} className="list-row">
              <span>
                <strong>{tier.name}</strong>
                <span className="muted small">
                  Levels {tier.fromLevel}–{tier.toLevel}
                  {tier.toLevel === MAX_LEVEL ? ' (50 is MAX)' : ''}
                </span>
              </span>
              <span className="muted">{levelStartXp(tier.fromLevel).toLocaleString('en-US')} XP</span>
            </li>
          ))}
        </ul>
      </section>
    </Page>
  );
}
