import { useState } from 'react';
import { API_URL } from '../../../lib/config.ts';
import { platform } from '../../../lib/platform/index.ts';
import { shareOrCopy } from '../../../lib/share.ts';
import { shareableOrigin, vouchLink } from './vouch-link.ts';
import './vouch.css';

/**
 * Under a stake whose appeal waits for a decision: a link the runner sends a group mate, who opens it and vouches
 * (POST /stakes/{id}/vouch). Shared through the phone's share sheet where there is one, else copied; the link is
 * shown too, so it can be copied by hand when neither works.
 */
export function AskForVouch({ stakeId }: { readonly stakeId: string }) {
  const link = vouchLink(stakeId, shareableOrigin(platform().name, window.location.origin, API_URL));
  const [outcome, setOutcome] = useState<'idle' | 'copied' | 'failed'>('idle');
  if (link === null) {
    return (
      <p className="vouch-ask muted small">Open StrideStake on the web to get a link a group mate can vouch on.</p>
    );
  }
  const share = async () => {
    const result = await shareOrCopy(link, 'Vouch for my run');
    setOutcome(result === 'shared' ? 'idle' : result);
  };
  return (
    <div className="vouch-ask">
      <button type="button" className="button secondary small" onClick={share}>
        Ask a group mate to vouch
      </button>
      {outcome === 'copied' ? (
        <span className="vouch-copied small" role="status">
          Link copied
        </span>
      ) : null}
      {outcome === 'failed' ? (
        <span className="field-error small" role="alert">
          Could not copy. Select the link to copy it.
        </span>
      ) : null}
      <input
        className="vouch-link small"
        readOnly
        aria-label="Vouch link"
        value={link}
        onFocus={(e) => e.currentTarget.select()}
      />
      <span className="muted small">Only members of your groups can vouch.</span>
    </div>
  );
}
