/** The user picker of User-Consignee Management: viewer users only, narrowed by a search; a pick runs the action. */
import { useId, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import type { AssignedUser } from '~/shared/consignees';
import { Modal } from '../common/Modal';

interface UserPickerModalProps {
  title: string;
  /** What picking does, in a sentence. */
  hint: string;
  viewers: readonly AssignedUser[];
  /** Users that cannot be picked here (already on the consignee), shown but disabled. */
  unavailable?: ReadonlySet<number>;
  onPick: (user: AssignedUser) => void;
  onClose: () => void;
}

export function UserPickerModal({
  title,
  hint,
  viewers,
  unavailable,
  onPick,
  onClose,
}: UserPickerModalProps) {
  const [search, setSearch] = useState('');
  const searchId = useId();
  const term = search.trim().toLocaleLowerCase('en');
  const listed = term
    ? viewers.filter(
        (user) =>
          user.username.toLocaleLowerCase('en').includes(term) ||
          user.fullName?.toLocaleLowerCase('en').includes(term),
      )
    : viewers;

  return (
    <Modal title={title} onClose={onClose}>
      <p className="mb-3 text-sm opacity-80">{hint}</p>
      <label htmlFor={searchId} className="mb-1 block text-sm font-medium">
        {m.assignments_search_users()}
      </label>
      <input
        id={searchId}
        type="search"
        className="input mb-3 w-full"
        placeholder={m.assignments_search_users_placeholder()}
        autoComplete="off"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {listed.length === 0 ? (
        <p className="py-6 text-center text-sm opacity-70">
          {viewers.length === 0 ? m.assignments_no_viewers() : m.assignments_no_users_found()}
        </p>
      ) : (
        <ul
          className="max-h-72 overflow-y-auto rounded-box border border-base-content/10"
          aria-label={m.assignments_viewer_users()}
        >
          {listed.map((user) => {
            const taken = unavailable?.has(user.id) ?? false;
            return (
              <li key={user.id} className="border-b border-base-content/10 last:border-b-0">
                <button
                  type="button"
                  className={[
                    'flex w-full items-center justify-between gap-3 px-4 py-2 text-left',
                    'hover:bg-base-content/5 disabled:cursor-not-allowed disabled:opacity-50',
                  ].join(' ')}
                  disabled={taken}
                  onClick={() => onPick(user)}
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium">
                      {user.fullName || user.username}
                    </span>
                    {user.fullName && (
                      <span className="block truncate text-sm opacity-70">{user.username}</span>
                    )}
                  </span>
                  {taken && (
                    <span className="badge badge-ghost badge-sm shrink-0">
                      {m.assignments_assigned()}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {m.assignments_cancel()}
        </button>
      </div>
    </Modal>
  );
}
