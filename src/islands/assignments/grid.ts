/** What the assignment grid shows: the counts, the filtered and sorted rows, one page of them and its page buttons. */
import { ASSIGNMENT_PAGE_SIZE } from '~/shared/constants';
import type { AssignedUser, ConsigneeAssignmentDto } from '~/shared/consignees';
import type { PublicUser } from '~/shared/validation';

export type UserFilter =
  { kind: 'all' } | { kind: 'unassigned' } | { kind: 'user'; userId: number };
export type SortKey = 'consignee' | 'user';
export type SortOrder = 'asc' | 'desc';

export interface GridView {
  search: string;
  filter: UserFilter;
  sortKey: SortKey;
  sortOrder: SortOrder;
  page: number;
}

export interface AssignmentCounts {
  total: number;
  assigned: number;
  unassigned: number;
}

export function assignmentCounts(rows: readonly ConsigneeAssignmentDto[]): AssignmentCounts {
  const assigned = rows.filter((row) => row.assignedUsers.length > 0).length;
  return { total: rows.length, assigned, unassigned: rows.length - assigned };
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function matches(row: ConsigneeAssignmentDto, search: string, filter: UserFilter): boolean {
  if (search && !row.consignee.name.toLocaleLowerCase('en').includes(search)) return false;
  if (filter.kind === 'unassigned') return row.assignedUsers.length === 0;
  if (filter.kind === 'user') return row.assignedUsers.some((user) => user.id === filter.userId);
  return true;
}

/**
 * By consignee name, or by the first assigned username with the consignee name breaking ties;
 * unassigned rows come after the assigned ones ascending, so before them descending.
 */
function compare(
  left: ConsigneeAssignmentDto,
  right: ConsigneeAssignmentDto,
  sortKey: SortKey,
): number {
  if (sortKey === 'user') {
    const leftUser = left.assignedUsers[0]?.username;
    const rightUser = right.assignedUsers[0]?.username;
    if (leftUser !== rightUser) {
      if (leftUser === undefined) return 1;
      if (rightUser === undefined) return -1;
      const byUser = collator.compare(leftUser, rightUser);
      if (byUser !== 0) return byUser;
    }
  }
  return (
    collator.compare(left.consignee.name, right.consignee.name) ||
    left.consignee.id - right.consignee.id
  );
}

/** The rows the search and user filter let through, in the chosen order. */
export function visibleRows(
  rows: readonly ConsigneeAssignmentDto[],
  view: Omit<GridView, 'page'>,
): ConsigneeAssignmentDto[] {
  const search = view.search.trim().toLocaleLowerCase('en');
  const direction = view.sortOrder === 'asc' ? 1 : -1;
  return rows
    .filter((row) => matches(row, search, view.filter))
    .sort((left, right) => direction * compare(left, right, view.sortKey));
}

export interface GridPage {
  rows: ConsigneeAssignmentDto[];
  /** The page shown: the one asked for, kept within 1 … pageCount when the rows shrank. */
  page: number;
  pageCount: number;
  /** 1-based position of the first row shown (0 when there is none). */
  first: number;
  last: number;
}

export function gridPage(rows: readonly ConsigneeAssignmentDto[], page: number): GridPage {
  const pageCount = Math.max(1, Math.ceil(rows.length / ASSIGNMENT_PAGE_SIZE));
  const shownPage = Math.min(Math.max(1, page), pageCount);
  const start = (shownPage - 1) * ASSIGNMENT_PAGE_SIZE;
  const pageRows = rows.slice(start, start + ASSIGNMENT_PAGE_SIZE);
  return {
    rows: pageRows,
    page: shownPage,
    pageCount,
    first: pageRows.length ? start + 1 : 0,
    last: start + pageRows.length,
  };
}

export type PageButton = number | 'gap';

/**
 * Up to seven buttons: every page when they fit, else the first, the last and the current one with
 * its neighbours (1 … 4 5 6 … 12).
 */
export function pageButtons(page: number, pageCount: number): PageButton[] {
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, index) => from + index);
  if (pageCount <= 7) return range(1, pageCount);
  if (page <= 4) return [...range(1, 5), 'gap', pageCount];
  if (page >= pageCount - 3) return [1, 'gap', ...range(pageCount - 4, pageCount)];
  return [1, 'gap', page - 1, page, page + 1, 'gap', pageCount];
}

/** 'Full Name (username)', or the username alone. */
export function userLabel(user: AssignedUser): string {
  return user.fullName ? `${user.fullName} (${user.username})` : user.username;
}

/**
 * The users the picker and the user filter offer: viewers only (assignments limit only a viewer's
 * receipts), by username.
 */
export function viewersOf(users: readonly PublicUser[]): AssignedUser[] {
  return users
    .filter((user) => user.role === 'viewer')
    .map(({ id, username, fullName }) => ({ id, username, fullName }))
    .sort((left, right) => collator.compare(left.username, right.username));
}
