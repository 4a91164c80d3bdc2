import { useEffect, useState } from 'react';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TOUR_DELAY_MS, TOUR_SLIDES, hasSeenTour, isLastSlide, markTourSeen, moveSlide } from '../tour-flags.ts';

/** One picture per slide: Welcome, Put Money on the Line, Run with Friends, Track Your Progress. */
const SLIDE_ICONS: readonly IconName[] = ['run', 'dollar', 'users', 'trophy'];

/**
 * The onboarding tour (§2, §4): four slides with Back, Next and Get Started, about 1 s after the first dashboard
 * load. Closing it any way counts as seen. `onDone` tells the page it may show other pop-ups.
 */
export function OnboardingTour({ onDone }: { readonly onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [index, setIndex] = useState(0);

  useEffect(() => {
    if (hasSeenTour()) {
      onDone();
      return;
    }
    const id = setTimeout(() => setOpen(true), TOUR_DELAY_MS);
    return () => clearTimeout(id);
  }, [onDone]);

  if (!open) return null;
  const close = () => {
    markTourSeen();
    setOpen(false);
    onDone();
  };
  const slide = TOUR_SLIDES[index]!;
  return (
    <Modal
      title={slide.title}
      onClose={close}
      footer={
        <>
          {index > 0 ? (
            <button type="button" className="button ghost" onClick={() => setIndex((i) => moveSlide(i, 'back'))}>
              Back
            </button>
          ) : (
            <button type="button" className="button ghost" onClick={close}>
              Skip
            </button>
          )}
          {isLastSlide(index) ? (
            <button type="button" className="button primary" onClick={close}>
              Get Started
            </button>
          ) : (
            <button type="button" className="button primary" onClick={() => setIndex((i) => moveSlide(i, 'next'))}>
              Next
            </button>
          )}
        </>
      }
    >
      <div className="tour-slide">
        <span className="tour-icon">
          <Icon name={SLIDE_ICONS[index] ?? 'star'} size={36} />
        </span>
        <p>{slide.body}</p>
        <p className="muted small" aria-live="polite">
          {index + 1} of {TOUR_SLIDES.length}
        </p>
        <span className="wizard-dots" aria-hidden="true">
          {TOUR_SLIDES.map((s, i) => (
            <span key={s.title} className={i === index ? 'dot done' : 'dot'} />
          ))}
        </span>
      </div>
    </Modal>
  );
}
