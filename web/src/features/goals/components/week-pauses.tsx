import { useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { addDays } from '../../../../../domain/gamification/dates.ts';
import { PAUSE_REASONS } from '../../../../../domain/goal/pause-horizon.ts';
import { addWeeks, nextWeekStart } from '../../../../../domain/shared/week.ts';
import { Modal } from '../../../components/modal.tsx';
import type { WeekPauseReason } from '../../../lib/api-types.ts';
import { useCancelWeekPause, usePauseWeek, useWeekPauses } from '../api/goal-pauses.ts';
import { weekLabel } from './goal-text.ts';

const REASON_LABEL: Record<WeekPauseReason, string> = { injury: 'Injury', travel: 'Travel', other: 'Other' };
/** How many weeks the picker offers, from next week on. */
const WEEKS_OFFERED = 8;

/** The Mondays the picker offers: next week and the seven after it, in the runner's zone. */
function weeksToOffer(timeZone: string): string[] {
  const next = nextWeekStart(Temporal.Now.instant(), timeZone);
  return Array.from({ length: WEEKS_OFFERED }, (_, i) => addWeeks(next, i));
}

const label = (weekStart: string) => weekLabel(weekStart, addDays(weekStart, 6));

/**
 * Pauses with notice (issue 25) on the goals screen: "Pause a week" opens a week picker and a reason; the server
 * decides (at least 7 days ahead, no goal that week) and its sentence is shown as it is. Paused weeks are listed
 * with "Paused", and a pause whose week has not begun can be canceled.
 */
export function WeekPauses({ timeZone }: { readonly timeZone: string }) {
  const pauses = useWeekPauses();
  const cancel = useCancelWeekPause();
  const [picking, setPicking] = useState(false);
  if (!pauses.isSuccess) return null;
  return (
    <section className="card" aria-label="Paused weeks">
      <h2>Paused Weeks</h2>
      <p className="muted small">
        Injured or traveling? A paused week has no goal and no stake, and your streak is kept.
      </p>
      {pauses.data.data.length > 0 ? (
        <ul className="list">
          {pauses.data.data.map((p) => (
            <li key={p.week_start} className="list-row">
              <div>
                <strong>Week of {label(p.week_start)}</strong>
                {p.reason ? <span className="muted small">{REASON_LABEL[p.reason]}</span> : null}
              </div>
              <span className="status status-paused">Paused</span>
              {p.cancelable ? (
                <button
                  type="button"
                  className="button ghost small"
                  aria-label={`Cancel the pause of the week of ${label(p.week_start)}`}
                  disabled={cancel.isPending}
                  onClick={() => cancel.mutate(p.week_start)}
                >
                  Cancel Pause
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="button secondary block" onClick={() => setPicking(true)}>
        Pause a Week
      </button>
      {picking ? <PauseWeekDialog timeZone={timeZone} onClose={() => setPicking(false)} /> : null}
    </section>
  );
}

function PauseWeekDialog({ timeZone, onClose }: { readonly timeZone: string; readonly onClose: () => void }) {
  const weeks = weeksToOffer(timeZone);
  const [week, setWeek] = useState(weeks[0] ?? '');
  const [reason, setReason] = useState<WeekPauseReason>('injury');
  const pause = usePauseWeek();
  const submit = () => pause.mutate({ week_start: week, reason }, { onSuccess: onClose });
  return (
    <Modal
      title="Pause a Week"
      onClose={onClose}
      footer={
        <>
          {pause.error ? (
            <p className="field-error footer-error" role="alert">
              {pause.error.message}
            </p>
          ) : null}
          <button type="button" className="button ghost" onClick={onClose}>
            Close
          </button>
          <button type="button" className="button primary" disabled={pause.isPending} onClick={submit}>
            Pause Week
          </button>
        </>
      }
    >
      <p className="muted">Pauses must be set at least 7 days ahead.</p>
      <label>
        Week
        <select
          value={week}
          onChange={(e) => {
            setWeek(e.target.value);
            pause.reset();
          }}
        >
          {weeks.map((w) => (
            <option key={w} value={w}>
              {label(w)}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="choice-row">
        <legend>Reason</legend>
        {PAUSE_REASONS.map((r) => (
          <label key={r} className="choice-radio">
            <input type="radio" name="pause-reason" checked={reason === r} onChange={() => setReason(r)} />
            {REASON_LABEL[r]}
          </label>
        ))}
      </fieldset>
    </Modal>
  );
}
