import { Icon, type IconName } from '../../../components/icon.tsx';
import type { FeedReactions, ReactionEmoji } from '../../../lib/api-types.ts';
import { useToggleReaction } from '../api/toggle-reaction.ts';

// Line icons rather than emoji glyphs: Debian's chromium (and some devices) have no emoji font.
const KINDS: readonly { emoji: ReactionEmoji; label: string; icon: IconName }[] = [
  { emoji: 'thumbs_up', label: 'Thumbs up', icon: 'thumbsUp' },
  { emoji: 'clap', label: 'Clap', icon: 'clap' },
  { emoji: 'fire', label: 'Fire', icon: 'flame' },
];

/** The three reactions of a feed card (§9) with counts; pressing one's own reaction takes it back. */
export function ReactionBar({
  eventId,
  reactions,
  viewerId,
}: {
  readonly eventId: string;
  readonly reactions: FeedReactions;
  readonly viewerId: string | null;
}) {
  const toggle = useToggleReaction();
  return (
    <div className="reaction-bar">
      {KINDS.map((k) => {
        const mine =
          !!viewerId && (reactions.reactions ?? []).some((r) => r.user_id === viewerId && r.emoji === k.emoji);
        return (
          <button
            key={k.emoji}
            type="button"
            className={mine ? 'reaction active' : 'reaction'}
            aria-pressed={mine}
            aria-label={`${k.label}: ${reactions[k.emoji]}`}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate({ eventId, emoji: k.emoji, on: !mine })}
          >
            <Icon name={k.icon} size={14} /> {reactions[k.emoji]}
          </button>
        );
      })}
    </div>
  );
}
