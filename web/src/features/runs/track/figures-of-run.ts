import { figuresOfAnswer, type RunFigures } from '../../../../../domain/run/run-figures.ts';
import type { Run } from '../../../lib/api-types.ts';

/** What the figures of a run are read from (GET /runs and every answer carrying runs). */
export type RunWithFigures = Pick<Run, 'distance_km' | 'duration_sec' | 'verification'>;

/**
 * A run's distance, time and pace as every screen shows them (domain/run/run-figures.ts): the distance the policy
 * counts for it, its time, the one over the other. The run summary, the history, the detail, the splits and the pace
 * chart all read them here, so they agree.
 */
export function figuresOfRun(run: RunWithFigures): RunFigures {
  return figuresOfAnswer(run);
}
