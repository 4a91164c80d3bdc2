import { useParams } from 'react-router';
import { Page } from '../../components/page.tsx';
import { VouchForRun } from '../../features/stakes/vouch/vouch-for-run.tsx';

/** /vouch/{stakeId}: the link a runner sends a group mate to vouch for an appealed week (issue 25.2). Signed in. */
export function VouchRoute() {
  const { stakeId = '' } = useParams();
  return (
    <Page title="Vouch for a run">
      <VouchForRun stakeId={stakeId} />
    </Page>
  );
}
