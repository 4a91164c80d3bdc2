import { Modal } from '../../../components/modal.tsx';

const STEPS = [
  ['Set a weekly goal', 'Pick a distance or a number of runs for Monday to Sunday.'],
  ['Add a stake (optional)', 'Put $5 to $100 on the line. It is a hold on your card, not a charge.'],
  ['Run', 'Track with GPS or sync from a connected app. Every run counts toward your goal.'],
  [
    'Settle up',
    'Hit your goal and the hold is released. Miss it and the stake is captured: 80% to your charity, 20% service fee.',
  ],
] as const;

/** The how-it-works explainer linked from the profile (§2). */
export function HowItWorksModal({ onClose }: { readonly onClose: () => void }) {
  return (
    <Modal title="How It Works" onClose={onClose}>
      <ol className="how-steps">
        {STEPS.map(([title, body]) => (
          <li key={title}>
            <strong>{title}</strong>
            <p className="muted small">{body}</p>
          </li>
        ))}
      </ol>
      <button type="button" className="button primary block" onClick={onClose}>
        Got it
      </button>
    </Modal>
  );
}
