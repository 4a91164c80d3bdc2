import { useParams } from 'react-router';
import { DEFAULT_TIME_ZONE } from '../../../../domain/shared/time-zone.ts';
import { Page } from '../../components/page.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { useReceipt } from '../../features/stakes/api/get-receipt.ts';
import { StakeReceiptView } from '../../features/stakes/receipt/stake-receipt.tsx';
import { useMe } from '../../features/user/api/get-me.ts';
import { errorMessage } from '../../lib/api-error.ts';

/** A collected stake's receipt (issue 25.5), opened from the donation impact card; printable. */
export function ReceiptRoute() {
  const { id = '' } = useParams();
  const receipt = useReceipt(id);
  const me = useMe();
  if (receipt.isPending) return <Spinner />;
  return (
    <Page
      title="Receipt"
      back="/profile?tab=stakes"
      actions={
        receipt.data ? (
          <button type="button" className="button ghost small receipt-actions" onClick={() => window.print()}>
            Print
          </button>
        ) : null
      }
    >
      {receipt.data ? (
        <StakeReceiptView receipt={receipt.data} timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE} />
      ) : (
        <p className="field-error" role="alert">
          {errorMessage(receipt.error, 'Failed to load the receipt')}
        </p>
      )}
    </Page>
  );
}
