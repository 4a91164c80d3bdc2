import { ApiError, errorMessage } from '../../../lib/api-error.ts';
import { useVouchForStake } from '../api/vouch-for-stake.ts';
import { vouchRefusalText } from './vouch-link.ts';
import './vouch.css';

/** The vouch link's page (issue 25.2): what vouching means, one button, then the thanks or the server's refusal. */
export function VouchForRun({ stakeId }: { readonly stakeId: string }) {
  const vouch = useVouchForStake();
  const refusal = vouch.error
    ? vouchRefusalText(
        vouch.error instanceof ApiError ? vouch.error.status : 0,
        errorMessage(vouch.error, 'Failed to vouch'),
      )
    : null;
  return (
    <section className="card vouch-card">
      <p>A member of your group appealed a missed week and asks you to confirm they ran it.</p>
      <p className="muted">Vouch only if you saw them run or know they did.</p>
      {vouch.isSuccess ? (
        <p className="vouch-thanks" role="status">
          Thanks: your vouch is on their appeal.
        </p>
      ) : (
        <button
          type="button"
          className="button primary block"
          disabled={vouch.isPending}
          onClick={() => vouch.mutate(stakeId)}
        >
          {vouch.isPending ? 'Vouching…' : 'Vouch'}
        </button>
      )}
      {refusal ? (
        <p className="field-error" role="alert">
          {refusal}
        </p>
      ) : null}
    </section>
  );
}
