/**
 * The admin's User-Consignee Management screen: the counts, search and user filter, the sortable grid with
 * its selection and bulk bar, paging, and the user picker. Every change reloads the assignments.
 */
import { useEffect, useId, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import type { AssignedUser, ConsigneeAssignmentDto } from '~/shared/consignees';
import { FEEDBACK_LONG_MS } from '~/shared/constants';
import { formatCount } from '~/shared/format';
import type { Locale } from '~/shared/locale';
import { Modal, ModalActions } from '../common/Modal';
import { failureText } from '../common/failure-text';
import { UsersIcon } from '../common/icons';
import { adoptLocale } from '../common/locale';
import { AssignmentTable } from './AssignmentTable';
import {
  assignmentCounts,
  gridPage,
  userLabel,
  viewersOf,
  visibleRows,
  type GridView,
  type SortKey,
  type UserFilter,
} from './grid';
import { Pager } from './Pager';
import { UserPickerModal } from './UserPickerModal';
import { ReadyFieldset } from '../common/ReadyFieldset';

export interface AssignmentManagementProps {
  locale: Locale;
  initialAssignments: ConsigneeAssignmentDto[];
  /** The users that can be assigned: role viewer. */
  initialViewers: AssignedUser[];
}

/** Who the picker picks a user for. */
type PickerTarget =
  | { kind: 'add'; row: ConsigneeAssignmentDto }
  | { kind: 'replace'; row: ConsigneeAssignmentDto }
  | { kind: 'bulk-add'; consigneeIds: number[] }
  | { kind: 'bulk-replace'; consigneeIds: number[] };

type OpenDialog =
  { kind: 'picker'; target: PickerTarget } | { kind: 'remove-all'; rows: ConsigneeAssignmentDto[] };

/** An object, so that the same text shown twice in a row restarts its timer. */
interface Notice {
  tone: 'success' | 'error';
  text: string;
}

const START_VIEW: GridView = {
  search: '',
  filter: { kind: 'all' },
  sortKey: 'consignee',
  sortOrder: 'asc',
  page: 1,
};

const consignees = (count: number) =>
  count === 1
    ? m.assignments_consignee_count_one({ count: formatCount(count) })
    : m.assignments_consignee_count_other({ count: formatCount(count) });

function filterValue(filter: UserFilter): string {
  return filter.kind === 'user' ? String(filter.userId) : filter.kind;
}

function parseFilter(value: string): UserFilter {
  return value === 'all' || value === 'unassigned'
    ? { kind: value }
    : { kind: 'user', userId: Number(value) };
}

/** A user filter for someone no longer a viewer would name an option the select does not have. */
function withoutGoneViewer(view: GridView, viewers: AssignedUser[]): GridView {
  const { filter } = view;
  if (filter.kind !== 'user' || viewers.some((user) => user.id === filter.userId)) return view;
  return { ...view, filter: { kind: 'all' }, page: 1 };
}

function pickerText(target: PickerTarget): { title: string; hint: string } {
  switch (target.kind) {
    case 'add':
      return {
        title: m.assignments_add_user_to({ target: target.row.consignee.name }),
        hint: m.assignments_add_user_hint(),
      };
    case 'replace':
      return {
        title: m.assignments_replace_all_of({ target: target.row.consignee.name }),
        hint: m.assignments_replace_all_hint(),
      };
    case 'bulk-add':
      return {
        title: m.assignments_add_user_to({ target: consignees(target.consigneeIds.length) }),
        hint: m.assignments_bulk_add_hint(),
      };
    case 'bulk-replace':
      return {
        title: m.assignments_bulk_replace_title({ target: consignees(target.consigneeIds.length) }),
        hint: m.assignments_bulk_replace_hint(),
      };
  }
}

/**
 * Remove All of the bulk bar: one removal call per assigned user (the API has no bulk removal);
 * every call is made even when one fails.
 */
async function removeEveryUser(rows: ConsigneeAssignmentDto[]): Promise<void> {
  const removals = rows.flatMap(({ consignee, assignedUsers }) =>
    assignedUsers.map((user) =>
      api('DELETE', `/consignees/${consignee.id}/remove-user/${user.id}`),
    ),
  );
  const failed = (await Promise.allSettled(removals)).find(
    (outcome) => outcome.status === 'rejected',
  );
  if (failed) throw failed.reason;
}

export default function AssignmentManagement({
  locale,
  initialAssignments,
  initialViewers,
}: AssignmentManagementProps) {
  adoptLocale(locale);
  const [assignments, setAssignments] = useState(initialAssignments);
  const [viewers, setViewers] = useState(initialViewers);
  const [loadFailures, setLoadFailures] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState(START_VIEW);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const searchId = useId();
  const filterId = useId();

  useEffect(() => {
    if (notice?.tone !== 'success') return;
    const timer = setTimeout(() => setNotice(null), FEEDBACK_LONG_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  async function reload(): Promise<void> {
    setLoading(true);
    const [assignmentAnswer, userAnswer] = await Promise.allSettled([
      api('GET', '/consignees/assignments'),
      api('GET', '/auth/users'),
    ]);
    const failures: string[] = [];
    if (assignmentAnswer.status === 'fulfilled') {
      const rows = assignmentAnswer.value;
      setAssignments(rows);
      // A consignee the provider no longer has cannot stay selected.
      const present = new Set(rows.map((row) => row.consignee.id));
      setSelected((current) => new Set([...current].filter((id) => present.has(id))));
    } else {
      failures.push(failureText(assignmentAnswer.reason, m.assignments_load_failed()));
    }
    if (userAnswer.status === 'fulfilled') {
      const nextViewers = viewersOf(userAnswer.value);
      setViewers(nextViewers);
      setView((current) => withoutGoneViewer(current, nextViewers));
    } else {
      failures.push(failureText(userAnswer.reason, m.assignments_users_load_failed()));
    }
    setLoadFailures(failures);
    setLoading(false);
  }

  /** Runs one change, says how it went, and shows the assignments as they now are. */
  async function change(
    action: () => Promise<string>,
    failure: string,
    afterSuccess?: () => void,
  ): Promise<void> {
    setDialog(null);
    setNotice(null);
    setBusy(true);
    try {
      setNotice({ tone: 'success', text: await action() });
      afterSuccess?.();
    } catch (error) {
      setNotice({ tone: 'error', text: failureText(error, failure) });
    }
    await reload();
    setBusy(false);
  }

  const clearSelection = () => setSelected(new Set());

  function pick(target: PickerTarget, user: AssignedUser): void {
    const body = { userId: user.id };
    switch (target.kind) {
      case 'add': {
        const { consignee } = target.row;
        return void change(async () => {
          await api('POST', `/consignees/${consignee.id}/add-user`, body);
          return m.assignments_added({ user: user.username, target: consignee.name });
        }, m.assignments_add_failed());
      }
      case 'replace': {
        const { consignee } = target.row;
        return void change(async () => {
          await api('POST', `/consignees/reassign/${consignee.id}`, body);
          return m.assignments_replaced({ user: user.username, target: consignee.name });
        }, m.assignments_replace_failed());
      }
      case 'bulk-add':
        return void change(
          async () => {
            const { added, skipped } = await api('POST', '/consignees/bulk-add-user', {
              ...body,
              consigneeIds: target.consigneeIds,
            });
            const texts = { user: user.username, target: consignees(added) };
            return skipped
              ? m.assignments_added_skipped({ ...texts, skipped: formatCount(skipped) })
              : m.assignments_added(texts);
          },
          m.assignments_bulk_add_failed(),
          clearSelection,
        );
      case 'bulk-replace':
        return void change(
          async () => {
            const { reassigned } = await api('POST', '/consignees/bulk-reassign', {
              ...body,
              consigneeIds: target.consigneeIds,
            });
            return m.assignments_replaced({ user: user.username, target: consignees(reassigned) });
          },
          m.assignments_bulk_replace_failed(),
          clearSelection,
        );
    }
  }

  function removeUser(row: ConsigneeAssignmentDto, user: AssignedUser): void {
    void change(async () => {
      await api('DELETE', `/consignees/${row.consignee.id}/remove-user/${user.id}`);
      return m.assignments_removed({ user: user.username, target: row.consignee.name });
    }, m.assignments_remove_failed());
  }

  function removeAll(rows: ConsigneeAssignmentDto[]): void {
    void change(
      async () => {
        await removeEveryUser(rows);
        return m.assignments_removed_all({ target: consignees(rows.length) });
      },
      m.assignments_remove_all_failed(),
      clearSelection,
    );
  }

  /** Search and user filter start again on page 1 (the page shown may not exist among fewer rows). */
  const refine = (next: Partial<GridView>) =>
    setView((current) => ({ ...current, ...next, page: 1 }));
  const sortBy = (sortKey: SortKey) =>
    setView((current) => ({
      ...current,
      sortKey,
      sortOrder: current.sortKey === sortKey && current.sortOrder === 'asc' ? 'desc' : 'asc',
    }));

  const counts = assignmentCounts(assignments);
  const rows = visibleRows(assignments, view);
  const shown = gridPage(rows, view.page);
  const selectedRows = assignments.filter((row) => selected.has(row.consignee.id));
  const selectedIds = selectedRows.map((row) => row.consignee.id);

  function togglePage(select: boolean): void {
    setSelected((current) => {
      const next = new Set(current);
      for (const row of shown.rows) {
        if (select) next.add(row.consignee.id);
        else next.delete(row.consignee.id);
      }
      return next;
    });
  }

  function toggleRow(consigneeId: number): void {
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(consigneeId)) next.add(consigneeId);
      return next;
    });
  }

  return (
    <ReadyFieldset>
      <div className="mb-4 grid grid-cols-3 gap-2 sm:gap-3">
        <Count label={m.assignments_total()} value={counts.total} />
        <Count label={m.assignments_assigned()} value={counts.assigned} tone="text-success" />
        <Count label={m.assignments_unassigned()} value={counts.unassigned} tone="text-warning" />
      </div>

      {loadFailures.map((failure) => (
        <div
          key={failure}
          role="alert"
          className="alert alert-error alert-soft mb-4 flex flex-wrap justify-between"
        >
          <span>{failure}</span>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void reload()}
            disabled={loading}
          >
            {m.assignments_try_again()}
          </button>
        </div>
      ))}
      {notice && (
        <div
          role={notice.tone === 'error' ? 'alert' : 'status'}
          className={[
            'alert alert-soft mb-4 flex justify-between',
            notice.tone === 'error' ? 'alert-error' : 'alert-success',
          ].join(' ')}
        >
          <span>{notice.text}</span>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            aria-label={m.assignments_dismiss()}
            onClick={() => setNotice(null)}
          >
            ×
          </button>
        </div>
      )}

      <section
        className="surface rounded-box border border-base-content/10"
        aria-label={m.assignments_region()}
      >
        <div className="flex flex-wrap items-end gap-3 p-4">
          <div className="flex min-w-48 flex-1 flex-col gap-1">
            <label htmlFor={searchId} className="text-sm font-medium">
              {m.assignments_search_label()}
            </label>
            <input
              id={searchId}
              type="search"
              className="input w-full"
              placeholder={m.assignments_search_placeholder()}
              autoComplete="off"
              value={view.search}
              onChange={(event) => refine({ search: event.target.value })}
            />
          </div>
          <div className="flex min-w-48 flex-col gap-1 max-sm:flex-1">
            <label htmlFor={filterId} className="text-sm font-medium">
              {m.assignments_user_filter()}
            </label>
            <select
              id={filterId}
              className="select w-full"
              value={filterValue(view.filter)}
              onChange={(event) => refine({ filter: parseFilter(event.target.value) })}
            >
              <option value="all">{m.assignments_all_users()}</option>
              <option value="unassigned">{m.assignments_unassigned()}</option>
              {viewers.map((user) => (
                <option key={user.id} value={user.id}>
                  {userLabel(user)}
                </option>
              ))}
            </select>
          </div>
          {(loading || busy) && (
            <span
              className="loading loading-spinner loading-sm mb-3 opacity-70"
              role="status"
              aria-label={m.assignments_loading()}
            />
          )}
        </div>

        {selectedIds.length > 0 && (
          <div
            role="toolbar"
            aria-label={m.assignments_bulk_actions()}
            className="flex flex-wrap items-center gap-2 border-y border-base-content/10 bg-primary/10 px-4 py-2"
          >
            <span className="mr-2 font-medium">
              {m.assignments_selected({ count: formatCount(selectedIds.length) })}
            </span>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={busy}
              onClick={() =>
                setDialog({
                  kind: 'picker',
                  target: { kind: 'bulk-add', consigneeIds: selectedIds },
                })
              }
            >
              {m.assignments_add_user()}
            </button>
            <button
              type="button"
              className="btn btn-sm"
              disabled={busy}
              onClick={() =>
                setDialog({
                  kind: 'picker',
                  target: { kind: 'bulk-replace', consigneeIds: selectedIds },
                })
              }
            >
              {m.assignments_replace_users()}
            </button>
            <button
              type="button"
              className="btn btn-error btn-outline btn-sm"
              disabled={busy}
              onClick={() => setDialog({ kind: 'remove-all', rows: selectedRows })}
            >
              {m.assignments_remove_all()}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={clearSelection}>
              {m.assignments_clear_selection()}
            </button>
          </div>
        )}

        {shown.rows.length === 0 ? (
          <div className="flex flex-col items-center gap-2 border-t border-base-content/10 px-6 py-12 text-center">
            <span className="opacity-50">
              <UsersIcon className="size-12" />
            </span>
            <h2 className="font-semibold">{m.assignments_empty_title()}</h2>
            <p className="text-sm opacity-70">
              {assignments.length === 0 ? (
                <>
                  {m.assignments_empty_import_lead()}{' '}
                  <a className="link" href="/admin/users">
                    {m.assignments_empty_import_link()}
                  </a>
                  .
                </>
              ) : (
                m.assignments_no_match()
              )}
            </p>
          </div>
        ) : (
          <>
            <AssignmentTable
              rows={shown.rows}
              selected={selected}
              busy={busy}
              sortKey={view.sortKey}
              sortOrder={view.sortOrder}
              onSort={sortBy}
              onToggleRow={toggleRow}
              onTogglePage={togglePage}
              onAddUser={(row) => setDialog({ kind: 'picker', target: { kind: 'add', row } })}
              onReplaceAll={(row) =>
                setDialog({ kind: 'picker', target: { kind: 'replace', row } })
              }
              onRemoveUser={removeUser}
            />
            <Pager
              shown={shown}
              total={rows.length}
              onPage={(page) => setView((current) => ({ ...current, page }))}
            />
          </>
        )}
      </section>

      {dialog?.kind === 'picker' && (
        <UserPickerModal
          {...pickerText(dialog.target)}
          viewers={viewers}
          unavailable={
            dialog.target.kind === 'add'
              ? new Set(dialog.target.row.assignedUsers.map((user) => user.id))
              : undefined
          }
          onPick={(user) => pick(dialog.target, user)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'remove-all' && (
        <Modal title={m.assignments_remove_all_title()} onClose={() => setDialog(null)}>
          <p>
            {m.assignments_remove_all_lead()} <strong>{consignees(dialog.rows.length)}</strong>{' '}
            {m.assignments_remove_all_rest()}
          </p>
          <ModalActions
            confirm={m.assignments_remove_all()}
            tone="error"
            busy={busy}
            onCancel={() => setDialog(null)}
            onConfirm={() => removeAll(dialog.rows)}
          />
        </Modal>
      )}
    </ReadyFieldset>
  );
}

function Count({ label, value, tone = '' }: { label: string; value: number; tone?: string }) {
  const labelId = useId();
  return (
    <div
      role="group"
      aria-labelledby={labelId}
      className="surface rounded-box border border-base-content/10 px-3 py-3 sm:px-5 sm:py-4"
    >
      <p id={labelId} className="text-xs opacity-70 sm:text-sm">
        {label}
      </p>
      <p className={`text-2xl font-bold tabular-nums sm:text-3xl ${tone}`}>{formatCount(value)}</p>
    </div>
  );
}
