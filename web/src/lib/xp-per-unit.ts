import { XP_PER_KM } from '../../../domain/gamification/xp.ts';
import { type DistanceUnit, KM_PER_MI } from '../../../domain/shared/units.ts';

/** The XP a run earns per unit of distance: XP is counted per km, so a mile earns about 16. */
export function xpPerUnit(unit: DistanceUnit): { readonly xp: number; readonly exact: boolean } {
  return unit === 'mi' ? { xp: Math.round(XP_PER_KM * KM_PER_MI), exact: false } : { xp: XP_PER_KM, exact: true };
}

/** '10 XP per km', 'about 16 XP per mile'. */
export function xpPerUnitText(unit: DistanceUnit): string {
  const { xp, exact } = xpPerUnit(unit);
  return `${exact ? '' : 'about '}${xp} XP per ${unit === 'mi' ? 'mile' : 'km'}`;
}
