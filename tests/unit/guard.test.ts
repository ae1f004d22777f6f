import { describe, expect, it } from 'vitest';
import { AppError } from '~/server/errors';
import { mayOpen, pageAccess, requireRole, requireUser } from '~/server/http/guard';
import type { PublicUser } from '~/shared/validation';

describe('pageAccess', () => {
  it.each([
    ['/login', 'public'],
    ['/login/', 'public'],
    ['/logout', 'public'],
    ['/sandbox', 'public'],
    ['/sandbox/oauth/authorize', 'admin'],
    ['/sandbox/oauth/token', 'public'],
    ['/sandbox/oauth/revoke', 'public'],
    ['/sandbox/v1/receipts', 'public'],
    ['/admin', 'admin'],
    ['/admin/users', 'admin'],
    ['/admin/users/viewers', 'admin'],
    ['/admin/tokens', 'admin'],
    ['/admin/activity', 'staff'],
    ['/admin/activity/', 'staff'],
    ['/admin/prealerts', 'staff'],
    ['/prealerts', 'user'],
    ['/', 'user'],
    ['/dashboard', 'user'],
    ['/receipts', 'user'],
    ['/profile', 'user'],
    ['/locations', 'user'],
    ['/loginx', 'user'],
    ['/administrator', 'user'],
    ['/sandboxes', 'user'],
    ['/dashboard/admin', 'user'],
  ])('when the path is %s, then access is %s', (path, access) => {
    expect(pageAccess(path)).toBe(access);
  });
});

describe('mayOpen', () => {
  it.each([
    ['user', 'viewer', true],
    ['staff', 'viewer', false],
    ['staff', 'admin-viewer', true],
    ['staff', 'admin', true],
    ['admin', 'admin-viewer', false],
    ['admin', 'admin', true],
  ] as const)('when a page is %s and the user is %s, then %s', (access, role, allowed) => {
    expect(mayOpen(access, role)).toBe(allowed);
  });
});

const user = (role: PublicUser['role']): PublicUser => ({
  id: 7,
  username: 'someone',
  fullName: null,
  email: null,
  role,
  isActive: true,
  invited: false,
  lastLogin: null,
  createdAt: '2024-01-01T00:00:00.000Z',
});

function thrown(action: () => unknown): AppError {
  try {
    action();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('requireUser and requireRole', () => {
  it('when nobody is signed in, then 401 AUTHENTICATION_ERROR', () => {
    const error = thrown(() => requireUser({ locals: { user: null } as App.Locals }));
    expect(error).toMatchObject({ errorType: 'AUTHENTICATION_ERROR', status: 401 });
    expect(
      thrown(() => requireRole({ locals: { user: null } as App.Locals }, 'admin')),
    ).toMatchObject({ status: 401 });
  });

  it('when a user is signed in, then requireUser returns them', () => {
    const signedIn = user('viewer');
    expect(requireUser({ locals: { user: signedIn } as App.Locals })).toBe(signedIn);
  });

  it.each(['viewer', 'admin-viewer'] as const)(
    'when a %s meets an admin-only rule, then 403 FORBIDDEN',
    (role) => {
      const error = thrown(() =>
        requireRole({ locals: { user: user(role) } as App.Locals }, 'admin'),
      );
      expect(error).toMatchObject({ errorType: 'FORBIDDEN', status: 403 });
    },
  );

  it('when the role is among the allowed ones, then requireRole returns the user', () => {
    const signedIn = user('admin-viewer');
    expect(requireRole({ locals: { user: signedIn } as App.Locals }, 'admin', 'admin-viewer')).toBe(
      signedIn,
    );
  });
});
