import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { given } from '../shared/testing/given-when-then.ts';
import type { ReactionCommand } from './commands.ts';
import { reactionDecider } from './decide.ts';
import type { ReactionEvent } from './events.ts';

const at = '2025-03-03T10:00:00.000Z';
const now = Temporal.Instant.from(at);
const add = (userId: string, emoji: string) =>
  ({ type: 'AddReaction', feedEventId: 'f1', userId, emoji, now }) as const;
const remove = (actorId: string, userId: string, emoji: string) =>
  ({ type: 'RemoveReaction', feedEventId: 'f1', actorId, userId, emoji, now }) as const;
const added = (userId: string, emoji: 'thumbs_up' | 'clap' | 'fire'): ReactionEvent => ({
  type: 'ReactionAdded',
  data: { feedEventId: 'f1', userId, emoji, at },
});

describe('reactions', () => {
  it('adds a reaction', () => {
    given(reactionDecider)
      .when(add('ann', 'fire'))
      .then([added('ann', 'fire')]);
  });
  it('allows each kind once per user, and other users the same kind', () => {
    given(reactionDecider, [added('ann', 'fire')])
      .when(add('ann', 'clap'))
      .then([added('ann', 'clap')]);
    given(reactionDecider, [added('ann', 'fire')])
      .when(add('bob', 'fire'))
      .then([added('bob', 'fire')]);
  });
  it('refuses the same kind twice from one user', () => {
    given(reactionDecider, [added('ann', 'fire')])
      .when(add('ann', 'fire'))
      .thenRejects('already_reacted', 'You have already reacted with this emoji');
  });
  it('refuses an unknown kind', () => {
    given(reactionDecider)
      .when(add('ann', 'heart'))
      .thenRejects('unknown_reaction', 'Reaction must be thumbs_up, clap or fire');
    given(reactionDecider)
      .when(remove('ann', 'ann', 'heart'))
      .thenRejects('unknown_reaction', 'Reaction must be thumbs_up, clap or fire');
  });
  it('lets the author remove their reaction, after which it can be added again', () => {
    given(reactionDecider, [added('ann', 'fire')])
      .when(remove('ann', 'ann', 'fire'))
      .then([{ type: 'ReactionRemoved', data: { feedEventId: 'f1', userId: 'ann', emoji: 'fire', at } }]);
    const removed: ReactionEvent = {
      type: 'ReactionRemoved',
      data: { feedEventId: 'f1', userId: 'ann', emoji: 'fire', at },
    };
    given(reactionDecider, [added('ann', 'fire'), removed])
      .when(add('ann', 'fire'))
      .then([added('ann', 'fire')]);
  });
  it("refuses removing someone else's reaction", () => {
    given(reactionDecider, [added('ann', 'fire')])
      .when(remove('bob', 'ann', 'fire'))
      .thenRejects('not_your_reaction', 'You can only remove your own reactions');
  });
  it('refuses removing a reaction that is not there', () => {
    given(reactionDecider, [added('ann', 'fire')])
      .when(remove('ann', 'ann', 'clap'))
      .thenRejects('reaction_not_found', 'Reaction not found');
  });
  it('never counts more than one of a kind per user, under any command sequence', () => {
    const user = fc.constantFrom('ann', 'bob');
    const emoji = fc.constantFrom('thumbs_up', 'clap', 'fire');
    const command: fc.Arbitrary<ReactionCommand> = fc.oneof(
      fc.tuple(user, emoji).map(([u, e]) => add(u, e)),
      fc.tuple(user, user, emoji).map(([a, u, e]) => remove(a, u, e)),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30 }), (commands) => {
        // The model: the set of `user:kind` pairs standing; the decider must agree with it after every command.
        const model = new Set<string>();
        let state = reactionDecider.initialState;
        for (const c of commands) {
          const key = `${c.userId}:${c.emoji}`;
          const result = reactionDecider.decide(c, state);
          if (c.type === 'AddReaction') expect(isRight(result)).toBe(!model.has(key));
          if (isRight(result)) {
            state = result.right.reduce(reactionDecider.evolve, state);
            if (c.type === 'AddReaction') model.add(key);
            else model.delete(key);
          }
        }
        const standing = [...state.byUser].flatMap(([u, kinds]) => [...kinds].map((k) => `${u}:${k}`));
        expect(new Set(standing).size).toBe(standing.length);
        expect(new Set(standing)).toEqual(model);
        expect(standing.filter((k) => k.endsWith(':fire')).length).toBeLessThanOrEqual(2);
      }),
    );
  });
});
