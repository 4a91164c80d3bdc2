import { useState } from 'react';
import { useAuth } from '../../../lib/auth.tsx';
import { DEMO_USER_ID } from '../../../lib/demo/demo-route.ts';
import { useDemoMode } from '../../../lib/demo-mode.ts';
import { ReactionBar } from './reaction-bar.tsx';
import { relativeTime } from '../../../../../domain/shared/relative-time.ts';
import { Temporal } from 'temporal-polyfill';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { FEED_FILTERS, type FeedFilter, useFeed } from '../api/get-feed.ts';
import { feedCardText } from './feed-card-text.ts';
import { Icon } from '../../../components/icon.tsx';
import { LoadError } from '../../../components/load-error.tsx';

const FILTER_LABELS: Record<FeedFilter, string> = { all: 'All', runs: 'Runs', stakes: 'Stakes', badges: 'Badges' };

/** The activity feed with its filters (§2, §9) and the 'No activity yet' empty state. */
export function ActivityFeed({
  groupId = null,
  timeZone,
}: {
  readonly groupId?: string | null;
  readonly timeZone: string;
}) {
  const [filter, setFilter] = useState<FeedFilter>('all');
  const feed = useFeed(filter, groupId);
  const unit = useDistanceUnit();
  const now = Temporal.Now.instant();
  const demo = useDemoMode();
  // In demo mode the sample data's own user reacts, so pressing a reaction again takes it back there too.
  const viewerId = useAuth().session?.user.id ?? (demo ? DEMO_USER_ID : null);
  const events = feed.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className="card feed" aria-label="Activity feed">
      <div className="section-head">
        <h2>Activity</h2>
      </div>
      <div className="chips" role="tablist" aria-label="Filter activity">
        {FEED_FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            role="tab"
            aria-selected={filter === f}
            className={filter === f ? 'chip active' : 'chip'}
            onClick={() => setFilter(f)}
          >
            {FILTER_LABELS[f]}
          </button>
        ))}
      </div>
      {feed.isPending ? (
        <p className="muted small">Loading…</p>
      ) : feed.isError && events.length === 0 ? (
        <LoadError what="activity" onRetry={() => void feed.refetch()} />
      ) : events.length === 0 ? (
        <div className="feed-empty">
          <p>No activity yet</p>
          <p className="muted small">Runs, stakes and badges will show up here.</p>
        </div>
      ) : (
        <ul className="feed-list">
          {events.map((event) => {
            const text = feedCardText(event, unit);
            return (
              <li key={event.id} className="feed-item">
                <span className={`feed-icon feed-${event.event_type}`}>
                  <Icon name={text.icon} size={18} />
                </span>
                <div className="feed-body">
                  <p className="feed-title">{text.title}</p>
                  {text.detail ? <p className="muted small">{text.detail}</p> : null}
                  <ReactionBar eventId={event.id} reactions={event.reactions} viewerId={viewerId} />
                </div>
                <time className="muted small" dateTime={event.created_at}>
                  {relativeTime(Temporal.Instant.from(event.created_at), now, timeZone)}
                </time>
              </li>
            );
          })}
        </ul>
      )}
      {feed.hasNextPage ? (
        <button
          type="button"
          className="button ghost small block"
          disabled={feed.isFetchingNextPage}
          onClick={() => feed.fetchNextPage()}
        >
          {feed.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </section>
  );
}
