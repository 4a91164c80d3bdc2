import { runXpEntry } from '../../../../domain/gamification/xp.ts';
import { ApiError } from '../api-error.ts';
import type { FeedEvent, ReactionEmoji } from '../api-types.ts';
import type { DemoState } from './demo-data.ts';
import { DEMO_GROUP_ID, demoGroupMembers } from './demo-groups.ts';
import { demoGoalJson } from './demo-goals.ts';
import { DEMO_USER_ID, type DemoRoute } from './demo-route.ts';
import { demoRunXpRows } from './demo-xp.ts';

const EMOJIS: readonly ReactionEmoji[] = ['thumbs_up', 'clap', 'fire'];

/** Other members' reactions on sample cards: a fixed pattern by card position, so the feed looks lived in. */
function othersReactions(position: number): Record<ReactionEmoji, number> {
  return { thumbs_up: position % 2, clap: (position + 1) % 3, fire: position % 3 === 0 ? 2 : 0 };
}

type Card = Omit<FeedEvent, 'reactions'>;

function withReactions(state: DemoState, cards: Card[]): FeedEvent[] {
  return cards.map((card, position) => {
    const mine = state.reactions?.[card.id] ?? [];
    const counts = othersReactions(position);
    for (const emoji of mine) counts[emoji] += 1;
    return {
      ...card,
      reactions: {
        ...counts,
        reactions: mine.map((emoji) => ({ user_id: DEMO_USER_ID, display_name: state.display_name, emoji })),
      },
    };
  });
}

const runCard = (
  id: string,
  userId: string,
  name: string,
  run: { started_at: string; distance_km: number; duration_sec: number },
  xp: { xp_amount: number; surge_bonus: number },
  groupId: string | null,
): Card => ({
  id,
  user_id: userId,
  group_id: groupId,
  event_type: 'run_completed',
  is_visible: true,
  created_at: run.started_at,
  display_name: name,
  event_data: {
    user_name: name,
    distance_km: run.distance_km,
    duration_sec: run.duration_sec,
    xp_earned: xp.xp_amount,
    surge_bonus: xp.surge_bonus,
  },
});

/** The demo user's own feed: their runs and stakes (§2 dashboard feed, filters all / runs / stakes / badges). */
function ownCards(state: DemoState, now: number, filter: string): Card[] {
  const xp = demoRunXpRows(state, now);
  const runs =
    filter === 'all' || filter === 'runs'
      ? [...state.runs].sort((a, b) => b.started_at.localeCompare(a.started_at)).slice(0, 6)
      : [];
  const stakes =
    filter === 'all' || filter === 'stakes'
      ? state.goals.map((g) => demoGoalJson(state, g, now)).filter((g) => g.stake_amount_cents > 0)
      : [];
  return [
    ...runs.map((r) =>
      runCard(
        `feed-${r.id}`,
        DEMO_USER_ID,
        state.display_name,
        r,
        xp.get(r.id) ?? { xp_amount: 0, surge_bonus: 0 },
        null,
      ),
    ),
    ...stakes.map(
      (g): Card => ({
        id: `feed-${g.id}`,
        user_id: DEMO_USER_ID,
        group_id: null,
        event_type: 'stake_created',
        is_visible: true,
        created_at: g.created_at ?? new Date(now).toISOString(),
        display_name: state.display_name,
        event_data: {
          user_name: state.display_name,
          goal_type: g.type,
          has_charity: g.charity_id !== null,
        },
      }),
    ),
  ];
}

/** The sample group's feed: every member's runs, newest first. */
function groupCards(state: DemoState, now: number, filter: string): Card[] {
  if (filter !== 'all' && filter !== 'runs') return [];
  return demoGroupMembers(state, now).flatMap((m) =>
    m.runs.map((r) => {
      const xp = runXpEntry(r.id, r.distance_km);
      return runCard(
        `group-${r.id}`,
        m.user_id,
        m.display_name,
        r,
        { xp_amount: xp.xp_amount, surge_bonus: 0 },
        DEMO_GROUP_ID,
      );
    }),
  );
}

/** GET /feed (own or ?group_id=) and the reactions on its cards, kept in the demo state. */
export const demoFeedRoutes: readonly DemoRoute[] = [
  [
    'GET',
    /^\/feed$/,
    (s, now, _m, _b, q) => {
      const filter = q.get('filter') ?? 'all';
      const groupId = q.get('group_id');
      if (groupId !== null && groupId !== DEMO_GROUP_ID) throw new ApiError('Group not found', 404);
      const cards = (groupId ? groupCards(s, now, filter) : ownCards(s, now, filter)).sort((a, b) =>
        b.created_at.localeCompare(a.created_at),
      );
      return { success: true, data: withReactions(s, cards), next_cursor: null };
    },
  ],
  [
    'POST',
    /^\/feed\/([^/]+)\/reactions$/,
    (s, _n, m, body) => {
      const emoji = EMOJIS.find((e) => e === body?.emoji);
      if (!emoji) throw new ApiError('Emoji must be thumbs_up, clap or fire', 400);
      const id = m[1]!;
      const mine = new Set(s.reactions?.[id] ?? []).add(emoji);
      s.reactions = { ...s.reactions, [id]: [...mine] };
      return { success: true, data: { feed_event_id: id, emoji } };
    },
  ],
  [
    'DELETE',
    /^\/feed\/([^/]+)\/reactions\/([^/]+)$/,
    (s, _n, m) => {
      const id = m[1]!;
      s.reactions = { ...s.reactions, [id]: (s.reactions?.[id] ?? []).filter((e) => e !== m[2]) };
      return { success: true, data: { feed_event_id: id, emoji: m[2], removed: true } };
    },
  ],
];
