import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { groupNameSchema, inviteCodeSchema } from '../../../../domain/validation/group.ts';
import { Page } from '../../components/page.tsx';
import { useGroups } from '../../features/groups/api/get-groups.ts';
import { useCreateGroup, useJoinGroup } from '../../features/groups/api/group-mutations.ts';
import { GroupFormModal } from '../../features/groups/components/group-form-modal.tsx';
import { Icon } from '../../components/icon.tsx';

/** Group list (§2) with Join and Create modals; a group just created or joined opens. */
export function GroupsRoute() {
  const navigate = useNavigate();
  const open = (group: { id: string }) => navigate(`/groups/${encodeURIComponent(group.id)}`);
  const groups = useGroups();
  const create = useCreateGroup();
  const join = useJoinGroup();
  const [modal, setModal] = useState<'join' | 'create' | null>(null);
  const list = groups.data ?? [];
  return (
    <Page
      title="Groups"
      actions={
        <>
          <button type="button" className="button ghost small" onClick={() => setModal('join')}>
            Join
          </button>
          <button type="button" className="button primary small" onClick={() => setModal('create')}>
            Create
          </button>
        </>
      }
    >
      {groups.isPending ? <section className="card skeleton" aria-busy="true" /> : null}
      {!groups.isPending && list.length === 0 ? (
        <section className="card empty-card">
          <span className="empty-icon">
            <Icon name="users" size={24} />
          </span>
          <h2>No groups yet</h2>
          <p className="muted">Create a group and share its invite code, or join one with a code from a friend.</p>
        </section>
      ) : null}
      {list.map((g) => (
        <Link key={g.id} to={`/groups/${g.id}`} className="card list-row group-row">
          <span>
            <strong>{g.name}</strong>
            <span className="muted small">
              {g.member_count} {g.member_count === 1 ? 'member' : 'members'}
            </span>
          </span>
          {g.role === 'owner' ? <span className="tag">Owner</span> : null}
        </Link>
      ))}
      {modal === 'create' ? (
        <GroupFormModal
          title="Create Group"
          label="Group name"
          submitLabel="Create Group"
          schema={groupNameSchema}
          fallbackError="Failed to create group"
          onSubmit={(name) => create.mutateAsync(name).then(open)}
          onClose={() => setModal(null)}
        />
      ) : null}
      {modal === 'join' ? (
        <GroupFormModal
          title="Join Group"
          label="Invite code"
          submitLabel="Join Group"
          schema={inviteCodeSchema}
          fallbackError="Failed to join group"
          onSubmit={(code) => join.mutateAsync(code).then(open)}
          onClose={() => setModal(null)}
        />
      ) : null}
    </Page>
  );
}
