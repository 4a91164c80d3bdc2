import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../components/page.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { ActivityFeed } from '../../features/feed/components/activity-feed.tsx';
import { useGroup } from '../../features/groups/api/get-group.ts';
import { useLeaderboard } from '../../features/groups/api/get-leaderboard.ts';
import { useLeaveGroup } from '../../features/groups/api/group-mutations.ts';
import { GroupMembers } from '../../features/groups/components/group-members.tsx';
import { TeamChallenges } from '../../features/groups/components/team-challenges.tsx';
import { useMe } from '../../features/user/api/get-me.ts';
import { formatCount } from '../../lib/format.ts';
import { copyText } from '../../lib/share.ts';
import { DEFAULT_TIME_ZONE } from '../../../../domain/shared/time-zone.ts';

/**
 * Group detail (§2): members, owner's invite code, leave, level leaderboard, team challenges, group feed; or Group
 * not found.
 */
export function GroupDetailRoute() {
  const { groupId = '' } = useParams();
  const group = useGroup(groupId);
  const board = useLeaderboard(groupId);
  const me = useMe();
  const leave = useLeaveGroup();
  const navigate = useNavigate();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  if (group.isPending) return <Spinner />;
  if (!group.data) {
    return (
      <Page title="Group not found" back="/groups">
        <p className="muted">This group does not exist, or you are not a member.</p>
      </Page>
    );
  }
  const g = group.data;
  // 'Copied!' only when the clipboard took the code (§9: for 2 s); a refusal says so, and the code stays selectable.
  const copyCode = async () => {
    const copied = await copyText(g.invite_code ?? '');
    setCopy(copied ? 'copied' : 'failed');
    if (copied) setTimeout(() => setCopy('idle'), 2_000);
  };
  const onLeave = () => {
    if (!window.confirm('Are you sure you want to leave this group?')) return;
    leave.mutate(g.id, { onSuccess: () => navigate('/groups') });
  };
  return (
    <Page title={g.name} back="/groups">
      <p className="muted">
        {g.member_count} {g.member_count === 1 ? 'member' : 'members'}
      </p>
      {g.role === 'owner' && g.invite_code ? (
        <section className="card invite">
          <span className="muted small">Invite code</span>
          <code className="invite-code">{g.invite_code}</code>
          <button type="button" className="button ghost small" onClick={copyCode}>
            {copy === 'copied' ? 'Copied!' : 'Copy'}
          </button>
          {copy === 'failed' ? (
            <p className="field-error small" role="alert">
              Could not copy. Select the code to copy it.
            </p>
          ) : null}
        </section>
      ) : null}
      <GroupMembers members={g.members} />
      <section className="card" aria-label="Leaderboard">
        <h2>Leaderboard</h2>
        <ol className="list">
          {(board.data ?? []).map((line) => (
            <li key={line.user_id} className="list-row">
              <span>
                <strong>#{line.rank}</strong> {line.display_name}{' '}
                {line.role === 'owner' ? <span className="tag">Owner</span> : null}
              </span>
              <span className="muted nowrap leaderboard-xp">
                Level {line.level} · {formatCount(line.total_xp)} XP
              </span>
            </li>
          ))}
        </ol>
      </section>
      <TeamChallenges groupId={g.id} />
      <ActivityFeed groupId={g.id} timeZone={me.data?.timezone ?? DEFAULT_TIME_ZONE} />
      {g.role !== 'owner' ? (
        <button type="button" className="button ghost danger block" onClick={onLeave}>
          Leave Group
        </button>
      ) : null}
    </Page>
  );
}
