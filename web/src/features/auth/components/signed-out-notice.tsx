import { useSignedOutNotice } from '../../../lib/session-end.ts';

/** Why the runner is on the sign-in page when it was not their doing (the session ended on another device). */
export function SignedOutNotice() {
  const notice = useSignedOutNotice();
  if (!notice) return null;
  return (
    <p className="signed-out-notice" role="alert">
      {notice}
    </p>
  );
}
