import { describe, expect, it } from 'vitest';
import {
  assignmentCounts,
  gridPage,
  pageButtons,
  userLabel,
  viewersOf,
  visibleRows,
  type GridView,
} from '~/islands/assignments/grid';
import { ASSIGNMENT_PAGE_SIZE } from '~/shared/constants';
import type { AssignedUser, ConsigneeAssignmentDto } from '~/shared/consignees';
import type { PublicUser } from '~/shared/validation';

const ann: AssignedUser = { id: 1, username: 'ann', fullName: 'Ann Smith' };
const bob: AssignedUser = { id: 2, username: 'bob', fullName: null };

const row = (id: number, name: string, users: AssignedUser[] = []): ConsigneeAssignmentDto => ({
  consignee: { id, name },
  assignedUsers: users,
});

const ROWS = [
  row(1, 'delta Trading'),
  row(2, 'Alpha N.V.', [bob]),
  row(3, 'Charlie Imports', [ann, bob]),
  row(4, 'bravo B.V.', [ann]),
];
const VIEW: Omit<GridView, 'page'> = {
  search: '',
  filter: { kind: 'all' },
  sortKey: 'consignee',
  sortOrder: 'asc',
};
const names = (rows: ConsigneeAssignmentDto[]) => rows.map((shown) => shown.consignee.name);

describe('assignmentCounts', () => {
  it('when some consignees have users, then they count as assigned and the rest as unassigned', () => {
    expect(assignmentCounts(ROWS)).toEqual({ total: 4, assigned: 3, unassigned: 1 });
    expect(assignmentCounts([])).toEqual({ total: 0, assigned: 0, unassigned: 0 });
  });
});

describe('visibleRows', () => {
  it('when sorted by consignee, then by name ignoring case, both ways', () => {
    expect(names(visibleRows(ROWS, VIEW))).toEqual([
      'Alpha N.V.',
      'bravo B.V.',
      'Charlie Imports',
      'delta Trading',
    ]);
    expect(names(visibleRows(ROWS, { ...VIEW, sortOrder: 'desc' }))).toEqual([
      'delta Trading',
      'Charlie Imports',
      'bravo B.V.',
      'Alpha N.V.',
    ]);
  });

  it('when sorted by assigned user, then by the first username with the name breaking ties, unassigned last ascending and first descending', () => {
    expect(names(visibleRows(ROWS, { ...VIEW, sortKey: 'user' }))).toEqual([
      'bravo B.V.',
      'Charlie Imports',
      'Alpha N.V.',
      'delta Trading',
    ]);
    expect(names(visibleRows(ROWS, { ...VIEW, sortKey: 'user', sortOrder: 'desc' }))).toEqual([
      'delta Trading',
      'Alpha N.V.',
      'Charlie Imports',
      'bravo B.V.',
    ]);
  });

  it('when searching, then consignee names containing the text in any case, spaces around it ignored', () => {
    expect(names(visibleRows(ROWS, { ...VIEW, search: '  B.v ' }))).toEqual(['bravo B.V.']);
    expect(names(visibleRows(ROWS, { ...VIEW, search: 'ann' }))).toEqual([]);
  });

  it('when filtering by a user or by Unassigned, then only their rows, and the search still applies', () => {
    expect(names(visibleRows(ROWS, { ...VIEW, filter: { kind: 'user', userId: ann.id } }))).toEqual(
      ['bravo B.V.', 'Charlie Imports'],
    );
    expect(
      names(
        visibleRows(ROWS, { ...VIEW, filter: { kind: 'user', userId: ann.id }, search: 'char' }),
      ),
    ).toEqual(['Charlie Imports']);
    expect(names(visibleRows(ROWS, { ...VIEW, filter: { kind: 'unassigned' } }))).toEqual([
      'delta Trading',
    ]);
  });
});

describe('gridPage', () => {
  const many = Array.from({ length: 65 }, (_, index) => row(index + 1, `Consignee ${index + 1}`));

  it('when there are 65 rows, then pages of 30, 30 and 5 with their positions', () => {
    expect(gridPage(many, 1)).toMatchObject({
      page: 1,
      pageCount: 3,
      first: 1,
      last: ASSIGNMENT_PAGE_SIZE,
    });
    expect(gridPage(many, 3)).toMatchObject({ page: 3, pageCount: 3, first: 61, last: 65 });
    expect(gridPage(many, 3).rows).toHaveLength(5);
  });

  it('when the page asked for is past the end (the rows shrank), then the last page', () => {
    expect(gridPage(many.slice(0, 31), 3)).toMatchObject({
      page: 2,
      pageCount: 2,
      first: 31,
      last: 31,
    });
  });

  it('when there are no rows, then one empty page', () => {
    expect(gridPage([], 2)).toEqual({ rows: [], page: 1, pageCount: 1, first: 0, last: 0 });
  });
});

describe('pageButtons', () => {
  it('when seven pages or fewer, then every page', () => {
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(2, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('when in the middle of many pages, then the first, the neighbours and the last with gaps (1 … 4 5 6 … 12)', () => {
    expect(pageButtons(5, 12)).toEqual([1, 'gap', 4, 5, 6, 'gap', 12]);
  });

  it('when near either end, then one gap only and always seven buttons', () => {
    expect(pageButtons(1, 12)).toEqual([1, 2, 3, 4, 5, 'gap', 12]);
    expect(pageButtons(4, 12)).toEqual([1, 2, 3, 4, 5, 'gap', 12]);
    expect(pageButtons(9, 12)).toEqual([1, 'gap', 8, 9, 10, 11, 12]);
    expect(pageButtons(12, 12)).toEqual([1, 'gap', 8, 9, 10, 11, 12]);
  });
});

describe('viewersOf and userLabel', () => {
  const user = (
    id: number,
    username: string,
    role: PublicUser['role'],
    fullName: string | null = null,
  ): PublicUser => ({
    id,
    username,
    fullName,
    email: null,
    role,
    isActive: true,
    invited: false,
    lastLogin: null,
    createdAt: '2024-01-01T00:00:00.000Z',
  });

  it('when users of every role are listed, then only the viewers, by username, with id, username and full name', () => {
    const users = [
      user(1, 'zed', 'viewer', 'Zed Z'),
      user(2, 'admin', 'admin'),
      user(3, 'amy', 'viewer'),
      user(4, 'boss', 'admin-viewer'),
    ];
    expect(viewersOf(users)).toEqual([
      { id: 3, username: 'amy', fullName: null },
      { id: 1, username: 'zed', fullName: 'Zed Z' },
    ]);
  });

  it('when a user has a full name, then it leads with the username in brackets', () => {
    expect(userLabel(ann)).toBe('Ann Smith (ann)');
    expect(userLabel(bob)).toBe('bob');
  });
});
