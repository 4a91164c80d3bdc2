import { type DistanceUnit, kmToMi } from '../shared/units.ts';
import type { OutrankedBy } from './count-once.ts';
import type { ExcludedPart, VerificationReason } from './verification.ts';

/** What the sentence is made of: the run's claim, what counts toward a stake, and why the rest does not. */
export interface StakeCountFacts {
  readonly claimedKm: number;
  readonly stakeKm: number;
  readonly reasons: readonly VerificationReason[];
  readonly excluded: readonly ExcludedPart[];
  readonly outrankedBy: OutrankedBy | null;
}

/** '45 s', '6 min', '1 h 5 min'. */
export function spokenDuration(sec: number): string {
  const s = Math.round(sec);
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0 ? `${Math.floor(minutes / 60)} h` : `${Math.floor(minutes / 60)} h ${rest} min`;
}

const number = (km: number, unit: DistanceUnit) => (unit === 'mi' ? kmToMi(km) : km).toFixed(2);

/** Why a part did not count, in plain words (one clause per reason). */
function clause(reason: VerificationReason, part: ExcludedPart | undefined, unit: DistanceUnit): string {
  const dur = spokenDuration(part?.sec ?? 0);
  const fixes = part?.fixes ?? 0;
  switch (reason) {
    case 'sparse_gps':
      return (part?.stretches ?? 0) > 1
        ? `${part?.stretches} GPS gaps (${dur} in all) were left out`
        : `a GPS gap of ${dur} was left out`;
    case 'uploaded_late':
      return `${dur} of track that reached us late was left out`;
    case 'teleport_segment':
      return `GPS jumps (${number(part?.km ?? 0, unit)} ${unit}) were left out`;
    case 'inaccurate_gps':
      return `${fixes} inaccurate GPS point${fixes === 1 ? ' was' : 's were'} ignored`;
    case 'fix_outside_run_time':
      return `${fixes} GPS point${fixes === 1 ? '' : 's'} from outside the run's time ${fixes === 1 ? 'was' : 'were'} ignored`;
    case 'faster_than_world_record':
      return 'a stretch faster than the world record was left out';
    case 'cycling_speed':
      return `${dur} at cycling speed was left out`;
    case 'walking_pace':
      return 'walking pace does not count toward a stake';
    case 'no_gps_track':
      return 'a run without a GPS track does not count toward a stake';
    case 'manual_entry':
      return 'a manual entry does not count toward a stake';
    case 'indoor_trainer':
      return 'a treadmill or virtual run does not count toward a stake';
    case 'vehicle_distance':
      return 'too much of it was faster than running';
    case 'flagged_by_provider':
      return 'the connected service flagged this activity';
    case 'not_a_run':
      return 'this activity is not a run';
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}

/** Reasons in the order a runner most needs to read them: what rejected the run, then doubts, then glitches. */
const ORDER: readonly VerificationReason[] = [
  'not_a_run',
  'flagged_by_provider',
  'vehicle_distance',
  'fix_outside_run_time',
  'faster_than_world_record',
  'manual_entry',
  'indoor_trainer',
  'no_gps_track',
  'walking_pace',
  'cycling_speed',
  'uploaded_late',
  'sparse_gps',
  'teleport_segment',
  'inaccurate_gps',
];

/**
 * What the run counts toward: the stake of its week ('stake'), its week's free goal ('goal'), or, in a week without
 * a goal, nothing named (null): a free goal's run is never said to count toward a stake.
 */
export type CountedToward = 'stake' | 'goal' | null;

/**
 * The run's count toward a stake in one sentence, e.g. "Counted 4.80 of 5.00 km toward your stake: a GPS gap of
 * 6 min was left out". Shared by the API and the web app (in the user's unit). `toward` names what it counts
 * toward (the web app knows the run's week: a free goal's run "Counted all 0.45 km toward your goal"); `stakeKm`
 * is then what counts toward that.
 */
export function stakeCountSentence(
  facts: StakeCountFacts,
  unit: DistanceUnit = 'km',
  toward: CountedToward = 'stake',
): string {
  const target = toward === null ? '' : ` toward your ${toward}`;
  const of = `${number(facts.stakeKm, unit)} of ${number(facts.claimedKm, unit)} ${unit}`;
  if (facts.outrankedBy?.rule === 'same_track') {
    return `Counted 0 of ${number(facts.claimedKm, unit)} ${unit}${target}: the same track was already logged`;
  }
  if (facts.outrankedBy?.rule === 'overlap') {
    return `Counted 0 of ${number(facts.claimedKm, unit)} ${unit}${target}: it overlaps another run you logged, which counts instead`;
  }
  const clauses = ORDER.filter((r) => facts.reasons.includes(r)).map((r) =>
    clause(
      r,
      facts.excluded.find((p) => p.reason === r),
      unit,
    ),
  );
  if (clauses.length === 0 || (toward !== 'stake' && facts.stakeKm >= facts.claimedKm)) {
    return `Counted all ${number(facts.claimedKm, unit)} ${unit}${target}`;
  }
  return `Counted ${of}${target}: ${clauses.slice(0, 3).join('; ')}`;
}
