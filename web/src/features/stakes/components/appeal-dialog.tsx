import { useId, useState } from 'react';
import type { AppealReason } from '../../../../../domain/stake/appeal-events.ts';
import { formatDollars } from '../../../../../domain/shared/money.ts';
import { stakeCountSentence } from '../../../../../domain/run/verdict-words.ts';
import { type DistanceUnit, formatDistance } from '../../../../../domain/shared/units.ts';
import { Modal } from '../../../components/modal.tsx';
import type { Run, Stake } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDateTime, weekOf } from '../../../lib/format.ts';
import { type ImportedRun, useImportRunFile } from '../../../lib/run-file-import.ts';
import { useAppealStake } from '../api/appeal-stake.ts';
import { useWeekRuns } from '../api/week-runs.ts';
import { APPEAL_NOTE_MAX, APPEAL_REASON_CHOICES, APPEAL_RUNS_MAX, leftOutOfStake } from '../appeal-words.ts';
import './appeal.css';

const REASONS = Object.keys(APPEAL_REASON_CHOICES) as AppealReason[];

/** What the run policy counted of a run of the staked week, toward the stake, in the runner's unit. */
function stakeVerdict(run: Run, unit: DistanceUnit): string {
  const v = run.verification;
  return stakeCountSentence(
    {
      claimedKm: v.claimed_distance_km,
      stakeKm: v.stake_distance_km,
      reasons: v.reasons,
      excluded: v.excluded,
      outrankedBy: v.counted_instead ? { runId: v.counted_instead.run_id, rule: v.counted_instead.rule } : null,
    },
    unit,
    'stake',
  );
}

const FORMAT_NAMES = { gpx: 'GPX', tcx: 'TCX', fit: 'FIT' } as const;

/** A run as the appeal lists it: its day and time, its distance, and what the run policy counted of it. */
function RunLine({ run }: { readonly run: Run }) {
  const unit = useDistanceUnit();
  const when = formatDateTime(run.started_at);
  return (
    <span className="appeal-run">
      <strong>
        {when.date} {when.time} · {formatDistance(run.distance_km, unit)}
      </strong>
      <span className="muted">{stakeVerdict(run, unit)}</span>
    </span>
  );
}

/**
 * "Appeal" on a stake of the Stakes tab (issue 25.2): why the week fell short, in the runner's words, a note, the
 * week's runs that counted for XP but not for the stake, and a watch file imported on the spot (POST /runs/import,
 * as the run screen does: the same file twice is the same run). The server decides whether an appeal may be made
 * and its sentence is shown as it is; the rules, or a person, decide the appeal afterwards.
 */
export function AppealDialog({
  stake,
  timeZone,
  onClose,
}: {
  readonly stake: Stake;
  /** The goal's zone: the week's days are its days. */
  readonly timeZone: string;
  readonly onClose: () => void;
}) {
  const [reason, setReason] = useState<AppealReason>('uploaded_late');
  const [note, setNote] = useState('');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [attached, setAttached] = useState<readonly ImportedRun[]>([]);
  const weekRuns = useWeekRuns(stake.week_start, timeZone);
  const importFile = useImportRunFile();
  const appeal = useAppealStake();
  const noteId = useId();
  const noteCountId = useId();
  const fileHintId = useId();
  const unit = useDistanceUnit();

  const leftOut = (weekRuns.data ?? []).filter(leftOutOfStake);
  const runIds = [...new Set([...picked, ...attached.map((r) => r.id)])];
  const toggle = (id: string) => {
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPicked(next);
    appeal.reset();
  };
  const attach = (file: File) =>
    importFile.mutate(file, {
      onSuccess: ({ data }) => {
        setAttached((runs) => (runs.some((r) => r.id === data.id) ? runs : [...runs, data]));
        setPicked((ids) => new Set([...ids, data.id]));
        appeal.reset();
      },
    });
  const submit = () =>
    appeal.mutate({ stakeId: stake.id, reason, note: note.trim(), runIds }, { onSuccess: () => onClose() });

  return (
    <Modal
      title="Appeal This Stake"
      onClose={onClose}
      footer={
        <>
          {appeal.error ? (
            <p className="field-error footer-error" role="alert">
              {appeal.error.message}
            </p>
          ) : null}
          <button type="button" className="button ghost" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="button primary"
            disabled={appeal.isPending || importFile.isPending || runIds.length > APPEAL_RUNS_MAX}
            onClick={submit}
          >
            Send Appeal
          </button>
        </>
      }
    >
      <p className="muted">
        {weekOf(stake.week_start)} · {formatDollars(stake.amount_cents)}. Show the runs the app missed: if they make up
        the week, nothing is taken. Until the appeal is decided, nothing is taken either.
      </p>
      <fieldset className="choice-row appeal-reasons">
        <legend>What happened?</legend>
        {REASONS.map((r) => (
          <label key={r} className="choice-radio">
            <input
              type="radio"
              name="appeal-reason"
              checked={reason === r}
              onChange={() => {
                setReason(r);
                appeal.reset();
              }}
            />
            {APPEAL_REASON_CHOICES[r]}
          </label>
        ))}
      </fieldset>
      <fieldset className="appeal-runs">
        <legend>Runs that counted for XP but not the stake</legend>
        {weekRuns.isPending ? <p className="muted small">Loading…</p> : null}
        {weekRuns.isSuccess && leftOut.length === 0 ? (
          <p className="muted small">No run of that week was left out of the stake.</p>
        ) : null}
        {leftOut.map((run) => (
          <label key={run.id} className="checkbox appeal-run-choice">
            <input type="checkbox" checked={picked.has(run.id)} onChange={() => toggle(run.id)} />
            <RunLine run={run} />
          </label>
        ))}
      </fieldset>
      <div className="appeal-file">
        <label className="button secondary">
          Attach a watch file
          <input
            type="file"
            className="visually-hidden"
            accept=".gpx,.tcx,.fit"
            aria-describedby={fileHintId}
            disabled={importFile.isPending}
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared, so the same file can be chosen again (the server answers with the run it already saved).
              event.target.value = '';
              if (file) attach(file);
            }}
          />
        </label>
        <p id={fileHintId} className="muted small">
          A GPX, TCX or FIT file from your watch: it is imported as a run and added to the appeal.
        </p>
        {importFile.isPending ? <p className="muted small">Importing…</p> : null}
        {importFile.error ? (
          <p className="field-error" role="alert">
            {importFile.error.message}
          </p>
        ) : null}
        {attached.length > 0 ? (
          <ul className="appeal-attached" aria-label="Attached runs">
            {attached.map((run) => {
              const when = formatDateTime(run.started_at);
              return (
                <li key={run.id} className="small">
                  Attached {formatDistance(run.distance_km, unit)} · {when.date} {when.time}
                  {run.recorded_with ? ` · ${FORMAT_NAMES[run.recorded_with.format]} file` : ''}
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
      <div className="appeal-note">
        <label htmlFor={noteId}>Note (optional)</label>
        <textarea
          id={noteId}
          rows={3}
          maxLength={APPEAL_NOTE_MAX}
          aria-describedby={noteCountId}
          value={note}
          onChange={(e) => {
            setNote(e.target.value);
            appeal.reset();
          }}
        />
        <span id={noteCountId} className="field-hint">
          {note.length}/{APPEAL_NOTE_MAX} characters
        </span>
      </div>
      {runIds.length > APPEAL_RUNS_MAX ? (
        <p className="field-error" role="alert">
          An appeal can name at most {APPEAL_RUNS_MAX} runs.
        </p>
      ) : null}
    </Modal>
  );
}
