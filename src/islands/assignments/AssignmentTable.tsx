/** One page of the grid: a checkbox per row, Select Page, sortable headers, user chips with × and the row actions. */
import { m } from '~/paraglide/messages.js';
import type { ConsigneeAssignmentDto, AssignedUser } from '~/shared/consignees';
import type { SortKey, SortOrder } from './grid';

interface AssignmentTableProps {
  rows: ConsigneeAssignmentDto[];
  selected: ReadonlySet<number>;
  /** While a change runs, nothing else can start. */
  busy: boolean;
  sortKey: SortKey;
  sortOrder: SortOrder;
  onSort: (key: SortKey) => void;
  onToggleRow: (consigneeId: number) => void;
  onTogglePage: (select: boolean) => void;
  onAddUser: (row: ConsigneeAssignmentDto) => void;
  onReplaceAll: (row: ConsigneeAssignmentDto) => void;
  onRemoveUser: (row: ConsigneeAssignmentDto, user: AssignedUser) => void;
}

const SORT_COLUMNS: { key: SortKey; label: () => string }[] = [
  { key: 'consignee', label: () => m.assignments_column_consignee() },
  { key: 'user', label: () => m.assignments_column_user() },
];

export function AssignmentTable(props: AssignmentTableProps) {
  const { rows, selected, busy, sortKey, sortOrder } = props;
  const selectedOnPage = rows.filter((row) => selected.has(row.consignee.id)).length;
  const wholePage = rows.length > 0 && selectedOnPage === rows.length;

  return (
    <div className="overflow-x-auto">
      <table className="table table-pinned" aria-label={m.assignments_table()}>
        <thead>
          <tr>
            <th scope="col" className="w-10">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                aria-label={m.assignments_select_page()}
                title={m.assignments_select_page()}
                checked={wholePage}
                ref={(box) => {
                  if (box) box.indeterminate = selectedOnPage > 0 && !wholePage;
                }}
                onChange={() => props.onTogglePage(!wholePage)}
              />
            </th>
            {SORT_COLUMNS.map(({ key, label }) => {
              const active = key === sortKey;
              return (
                <th
                  key={key}
                  scope="col"
                  aria-sort={active ? (sortOrder === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 font-semibold hover:underline"
                    onClick={() => props.onSort(key)}
                  >
                    {label()}
                    <span aria-hidden="true" className={active ? '' : 'opacity-30'}>
                      {active && sortOrder === 'desc' ? '▼' : '▲'}
                    </span>
                  </button>
                </th>
              );
            })}
            <th scope="col" className="text-right">
              {m.assignments_column_actions()}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const { consignee, assignedUsers } = row;
            return (
              <tr
                key={consignee.id}
                className={selected.has(consignee.id) ? 'bg-primary/10' : 'hover:bg-base-content/5'}
              >
                <td>
                  <input
                    type="checkbox"
                    className="checkbox checkbox-sm"
                    aria-label={m.assignments_select_row({ name: consignee.name })}
                    checked={selected.has(consignee.id)}
                    onChange={() => props.onToggleRow(consignee.id)}
                  />
                </td>
                <td className="min-w-40 font-medium">{consignee.name}</td>
                <td className="min-w-36">
                  {assignedUsers.length === 0 ? (
                    <span className="text-sm opacity-60">{m.assignments_unassigned()}</span>
                  ) : (
                    <ul
                      className="flex flex-wrap gap-1"
                      aria-label={m.assignments_users_of({ name: consignee.name })}
                    >
                      {assignedUsers.map((user) => (
                        <li
                          key={user.id}
                          className="badge badge-primary badge-soft gap-1 pr-1"
                          title={user.fullName ?? undefined}
                        >
                          {user.username}
                          <button
                            type="button"
                            className="rounded-full px-1 leading-none hover:bg-base-content/10 disabled:opacity-40"
                            aria-label={m.assignments_remove_user_from({
                              user: user.username,
                              target: consignee.name,
                            })}
                            disabled={busy}
                            onClick={() => props.onRemoveUser(row, user)}
                          >
                            ×
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  <div className="flex flex-wrap justify-end gap-1">
                    <button
                      type="button"
                      className="btn btn-outline btn-primary btn-xs"
                      disabled={busy}
                      onClick={() => props.onAddUser(row)}
                    >
                      {m.assignments_add_user()}
                    </button>
                    <button
                      type="button"
                      className="btn btn-outline btn-xs"
                      disabled={busy}
                      onClick={() => props.onReplaceAll(row)}
                    >
                      {m.assignments_replace_all()}
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
