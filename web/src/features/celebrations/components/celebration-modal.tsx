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
  const share = async () => {
    if ((await shareOrCopy(shareText, title)) !== 'copied') return;
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
      </Modal>
    </>
  );
}
