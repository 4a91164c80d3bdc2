import { useState } from 'react';
import { saveApiFile } from '../../../lib/save-file.ts';

/** "Download my data" on the profile: a zip of every run as GPX and the account's goals, stakes, groups, preferences. */
export function DownloadMyData() {
  const [state, setState] = useState<'idle' | 'working' | 'done' | { problem: string }>('idle');
  const download = () => {
    setState('working');
    const day = new Date().toISOString().slice(0, 10);
    saveApiFile('/me/export', `stridestake-data-${day}.zip`)
      .then(() => setState('done'))
      .catch((error: unknown) =>
        setState({ problem: error instanceof Error ? error.message : 'Your data could not be downloaded.' }),
      );
  };
  return (
    <>
      <button type="button" className="list-row" onClick={download} disabled={state === 'working'}>
        <span>
          Download my data
          <span className="muted small">Every run as GPX, and your goals, stakes, groups and settings</span>
        </span>
        <span className="muted" role="status">
          {state === 'working' ? 'Preparing…' : state === 'done' ? 'Downloaded' : ''}
        </span>
      </button>
      {typeof state === 'object' ? (
        <p className="load-error" role="alert">
          {state.problem}
        </p>
      ) : null}
    </>
  );
}
