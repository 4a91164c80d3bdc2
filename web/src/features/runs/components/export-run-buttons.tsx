import { useState } from 'react';
import { useDemoMode } from '../../../lib/demo-mode.ts';
import { saveApiFile } from '../../../lib/save-file.ts';

/** "Export GPX" / "Export TCX" on the run detail: the run's track as a file for another app or watch. */
export function ExportRunButtons({ runId, startedAt }: { readonly runId: string; readonly startedAt: string }) {
  const [problem, setProblem] = useState<string | null>(null);
  // The demo's runs are sample data in this browser: the server has no file of them.
  if (useDemoMode()) return null;
  const save = (format: 'gpx' | 'tcx') => {
    setProblem(null);
    const name = `stridestake-run-${startedAt.slice(0, 10)}.${format}`;
    saveApiFile(`/runs/${encodeURIComponent(runId)}/export?format=${format}`, name).catch((error: unknown) =>
      setProblem(error instanceof Error ? error.message : 'The file could not be made.'),
    );
  };
  return (
    <div className="export-run">
      <button type="button" className="button secondary small" onClick={() => save('gpx')}>
        Export GPX
      </button>
      <button type="button" className="button secondary small" onClick={() => save('tcx')}>
        Export TCX
      </button>
      {problem ? (
        <p className="load-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
