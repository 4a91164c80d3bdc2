import type { GroupMember } from '../../../lib/api-types.ts';

/** The members list of a group (§2), the owner tagged. */
export function GroupMembers({ members }: { readonly members: readonly GroupMember[] }) {
  return (
    <section className="card" aria-label="Members">
      <h2>Members</h2>
      <ul className="list">
        {members.map((m) => (
          <li key={m.user_id} className="list-row">
            <span>{m.display_name}</span>
            {m.role === 'owner' ? <span className="tag">Owner</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
