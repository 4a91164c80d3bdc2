import { useState } from 'react';
import { Confetti } from '../../../components/confetti.tsx';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { Modal } from '../../../components/modal.tsx';
import { shareOrCopy } from '../../../lib/share.ts';

/** A celebration pop-up (§2 goal complete, badge earned): confetti, a message, Share and Close. */
export function CelebrationModal({
  title,
  heading,
  message,
  shareText,
  icon,
  color,
  onClose,
}: {
  readonly title: string;
  readonly heading: string;
  readonly message: string;
  readonly shareText: string;
  readonly icon: IconName;
  readonly color?: string;
  readonly onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  // Neither Web Share nor the clipboard worked: the text is shown to copy by hand, so Share is never silent.
  const [failed, setFailed] = useState(false);
  const share = async () => {
    const outcome = await shareOrCopy(shareText, title);
    setFailed(outcome === 'failed');
    if (outcome !== 'copied') return;
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  };
  return (
    <>
      <Confetti />
      <Modal
        title={title}
        onClose={onClose}
        footer={
          <>
            <button type="button" className="button ghost" onClick={share}>
              {copied ? 'Copied!' : 'Share'}
            </button>
            <button type="button" className="button primary" onClick={onClose}>
              Awesome!
            </button>
          </>
        }
      >
        <div className="celebration" style={color ? { ['--badge-color' as string]: color } : undefined}>
          <span className="celebration-icon">
            <Icon name={icon} size={36} />
          </span>
          <h3>{heading}</h3>
          <p className="muted">{message}</p>
        </div>
        {failed ? (
          <div className="share-fallback" role="status">
            <p className="small">Sharing is not available on this device. Copy this to share it:</p>
            <textarea
              readOnly
              aria-label="Text to share"
              value={shareText}
              rows={3}
              onFocus={(e) => e.currentTarget.select()}
            />
          </div>
        ) : null}
      </Modal>
    </>
  );
}
