import { useEffect, useId, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { useDemoMode } from '../../../lib/demo-mode.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDateTime, formatDuration } from '../../../lib/format.ts';
import { type ImportedRun, useImportRunFile } from '../../../lib/run-file-import.ts';
import { RunVerdict } from './run-verdict.tsx';

const FORMAT_NAMES = { gpx: 'GPX', tcx: 'TCX', fit: 'FIT' } as const;

/** Where the track came from, as the file says: "a FIT file from Forerunner 255 (garmin)". */
export function recordedWithText(origin: NonNullable<ImportedRun['recorded_with']>): string {
  const file = `a ${FORMAT_NAMES[origin.format]} file`;
  if (origin.device && origin.creator) return `${file} from ${origin.device} (${origin.creator})`;
  const by = origin.device ?? origin.creator;
  return by ? `${file} from ${by}` : file;
}

/** The run a file became, on screen at once with its verdict (the policy's sentence, in the user's unit). */
function ImportedRunCard({ run }: { readonly run: ImportedRun }) {
  const unit = useDistanceUnit();
  const when = formatDateTime(run.started_at);
  return (
    <div className="imported-run" role="status" aria-label="Imported run">
      <p>
        <strong>
          Imported {formatDistance(run.distance_km, unit)} in {formatDuration(run.duration_sec)}
        </strong>
      </p>
      <p className="muted small">
        {when.date} {when.time}
        {run.recorded_with ? ` · ${recordedWithText(run.recorded_with)}` : ''}
      </p>
      <p>
        <RunVerdict verification={run.verification} startedAt={run.started_at} />
      </p>
      <p>
        <Link to={`/runs/${run.id}`}>View run</Link>
      </p>
    </div>
  );
}

/**
 * "Import a file" (issue 24, watch files): a GPX, TCX or FIT file from a watch becomes a run, judged by the run
 * policy as an upload after the fact. Shows the run with its verdict, or the sentence the file was refused with.
 * Not in demo mode.
 */
export function ImportRunFile() {
  const importFile = useImportRunFile();
  const hintId = useId();
  const demo = useDemoMode();
  // Linked as #import (the connected apps' "Import a FIT file"): a client-side navigation does not scroll to it.
  const section = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#import') section.current?.scrollIntoView({ block: 'start' });
  }, [hash]);
  // The demo's sample data lives in this browser: a file would go to nobody's account.
  if (demo) return null;
  return (
    <section ref={section} id="import" className="card import-run-file" aria-label="Import a file">
      <label className="button secondary">
        Import a file
        <input
          type="file"
          className="visually-hidden"
          accept=".gpx,.tcx,.fit"
          aria-describedby={hintId}
          disabled={importFile.isPending}
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Cleared so choosing the same file again imports it again (the server answers with the same run).
            event.target.value = '';
            if (file) importFile.mutate(file);
          }}
        />
      </label>
      <p id={hintId} className="muted small">
        A GPX, TCX or FIT file from your watch, up to 10 MB.
      </p>
      {importFile.isPending ? <p className="muted">Importing…</p> : null}
      {importFile.isError ? (
        <p className="load-error" role="alert">
          {importFile.error.message}
        </p>
      ) : null}
      {importFile.data && !importFile.isPending ? <ImportedRunCard run={importFile.data.data} /> : null}
    </section>
  );
}
