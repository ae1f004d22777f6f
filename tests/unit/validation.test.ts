import { describe, expect, it } from 'vitest';
import { routeIdSchema } from '~/shared/route-id';
import {
  changePasswordFormSchema,
  changePasswordSchema,
  createUserSchema,
  fieldErrors,
  loginSchema,
  resetPasswordSchema,
  toFieldIssues,
  updateUserSchema,
} from '~/shared/validation';

/** The first message a schema gives for an input, or null when it passes. */
function firstMessage(
  schema: { safeParse(input: unknown): { success: boolean; error?: any } },
  input: unknown,
): string | null {
  const result = schema.safeParse(input);
  return result.success ? null : result.error.issues[0].message;
}

describe('loginSchema', () => {
  it.each([
    [{ username: 'ab', password: 'secret1' }, 'Username must be at least 3 characters'],
    [{ username: 'a'.repeat(31), password: 'secret1' }, 'Username must not exceed 30 characters'],
    [
      { username: 'bad name', password: 'secret1' },
      'Username can only contain letters, numbers, hyphens, and underscores',
    ],
    [
      { username: 'bäd', password: 'secret1' },
      'Username can only contain letters, numbers, hyphens, and underscores',
    ],
    [{ username: 'admin', password: '12345' }, 'Password must be at least 6 characters'],
    [{ username: 'admin', password: 'p'.repeat(129) }, 'Password must not exceed 128 characters'],
    [{ password: 'secret1' }, 'Username is required'],
    [{ username: 'admin' }, 'Password is required'],
  ])('when the payload is %j, then "%s"', (input, message) => {
    expect(firstMessage(loginSchema, input)).toBe(message);
  });

  it('when the payload is valid at the limits, then it passes with the username lowercased', () => {
    expect(loginSchema.parse({ username: 'Ab_-9', password: '123456' })).toEqual({
      username: 'ab_-9',
      password: '123456',
    });
    expect(
      loginSchema.safeParse({ username: 'a'.repeat(30), password: 'p'.repeat(128) }).success,
    ).toBe(true);
  });
});

describe('changePasswordSchema', () => {
  it.each([
    [{ currentPassword: '12345', newPassword: 'new-secret' }, 'Current password is required'],
    [{ newPassword: 'new-secret' }, 'Current password is required'],
    [
      { currentPassword: 'old-secret', newPassword: '12345' },
      'New password must be at least 6 characters',
    ],
    [{ currentPassword: 'old-secret' }, 'New password must be at least 6 characters'],
    [
      { currentPassword: 'old-secret', newPassword: 'n'.repeat(129) },
      'New password must not exceed 128 characters',
    ],
  ])('when the payload is %j, then "%s"', (input, message) => {
    expect(firstMessage(changePasswordSchema, input)).toBe(message);
  });

  it('when the payload is valid, then it passes unchanged, signing the others out unless it says not to', () => {
    expect(
      changePasswordSchema.parse({ currentPassword: 'old-secret', newPassword: 'new-secret' }),
    ).toEqual({
      currentPassword: 'old-secret',
      newPassword: 'new-secret',
      signOutOthers: true,
    });
    expect(
      changePasswordSchema.parse({
        currentPassword: 'old-secret',
        newPassword: 'new-secret',
        signOutOthers: false,
      }).signOutOthers,
    ).toBe(false);
  });

  it('when the form leaves its box unticked, then the others stay signed in; ticked, they are signed out', () => {
    const form = {
      currentPassword: 'old-secret',
      newPassword: 'new-secret',
      confirmPassword: 'new-secret',
    };
    expect(changePasswordFormSchema.parse(form).signOutOthers).toBe(false);
    expect(changePasswordFormSchema.parse({ ...form, signOutOthers: 'on' }).signOutOthers).toBe(
      true,
    );
  });

  it('when the form\'s confirmation differs, then "Passwords don\'t match" on confirmPassword', () => {
    const result = changePasswordFormSchema.safeParse({
      currentPassword: 'old-secret',
      newPassword: 'new-secret',
      confirmPassword: 'new-secreT',
    });
    expect(result.success).toBe(false);
    expect(toFieldIssues(result.error!)).toEqual([
      { field: 'confirmPassword', message: "Passwords don't match" },
    ]);
    expect(
      changePasswordFormSchema.safeParse({
        currentPassword: 'old-secret',
        newPassword: 'new-secret',
        confirmPassword: 'new-secret',
      }).success,
    ).toBe(true);
  });
});

describe('createUserSchema', () => {
  it.each([
    [{ password: 'secret1' }, 'Username is required'],
    [{ username: '', password: 'secret1' }, 'Username is required'],
    [{ username: '   ', password: 'secret1' }, 'Username is required'],
    [{ username: 'ab', password: 'secret1' }, 'Username must be at least 3 characters'],
    [{ username: 'a'.repeat(31), password: 'secret1' }, 'Username must not exceed 30 characters'],
    [
      { username: 'bad name', password: 'secret1' },
      'Username must contain only alphanumeric characters, hyphens, and underscores',
    ],
    [
      { username: 'bad@name', password: 'secret1' },
      'Username must contain only alphanumeric characters, hyphens, and underscores',
    ],
    [{ username: 'goodname', email: 'not-an-email', password: 'secret1' }, 'Email is invalid'],
    [{ username: 'goodname', email: 'a@b', password: 'secret1' }, 'Email is invalid'],
    [{ username: 'goodname' }, 'Password is required'],
    [{ username: 'goodname', password: '' }, 'Password is required'],
    [{ username: 'goodname', password: '12345' }, 'Password must be at least 6 characters'],
    [
      { username: 'goodname', password: 'secret1', role: 'root' },
      'Role must be admin, admin-viewer or viewer',
    ],
  ])('when the payload is %j, then "%s"', (input, message) => {
    expect(firstMessage(createUserSchema, input)).toBe(message);
  });

  it('when optional fields are left out, then role is viewer and fullName and email are null', () => {
    expect(createUserSchema.parse({ username: 'NewUser', password: 'secret1' })).toEqual({
      username: 'newuser',
      password: 'secret1',
      role: 'viewer',
      fullName: null,
      email: null,
      invite: false,
    });
  });

  it.each([
    [{ username: 'invitee', email: 'invitee@example.com', invite: true }, null],
    [
      { username: 'invitee', invite: true },
      ['email', "An invitation needs the user's e-mail address"],
    ],
    [
      { username: 'invitee', email: 'invitee@example.com', invite: true, password: 'secret1' },
      ['password', 'Choose either a password or an invitation, not both'],
    ],
    [{ username: 'invitee', email: 'invitee@example.com' }, ['password', 'Password is required']],
    [{ username: 'x', invite: true }, ['username', 'Username must be at least 3 characters']],
  ] as const)('when an invitation is asked as %j, then it is refused with %j', (input, refusal) => {
    const parsed = createUserSchema.safeParse(input);
    if (refusal === null) {
      expect(parsed.success).toBe(true);
      return;
    }
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toMatchObject({ [refusal[0]]: refusal[1] });
  });

  it('when fields carry spaces or are empty or null, then they are trimmed, and empty or null becomes null', () => {
    expect(
      createUserSchema.parse({
        username: ' Bob ',
        password: 'secret1',
        fullName: '  Bob B ',
        email: ' bob@example.com ',
        role: 'admin',
      }),
    ).toMatchObject({
      username: 'bob',
      fullName: 'Bob B',
      email: 'bob@example.com',
      role: 'admin',
    });
    expect(
      createUserSchema.parse({ username: 'bob', password: 'secret1', fullName: '', email: '' }),
    ).toMatchObject({ fullName: null, email: null });
    expect(
      createUserSchema.parse({ username: 'bob', password: 'secret1', fullName: null, email: null }),
    ).toMatchObject({ fullName: null, email: null });
  });
});

describe('updateUserSchema', () => {
  const valid = { username: 'bob', role: 'viewer', isActive: true };

  it('when the payload is valid, then it passes', () => {
    expect(updateUserSchema.parse(valid)).toEqual({ ...valid, fullName: null, email: null });
  });

  it.each([
    [{ username: 'bob', role: 'viewer' }, 'isActive must be true or false'],
    [{ ...valid, isActive: 'yes' }, 'isActive must be true or false'],
    [{ ...valid, role: undefined }, 'Role must be admin, admin-viewer or viewer'],
    [{ ...valid, username: 'b' }, 'Username must be at least 3 characters'],
    [{ ...valid, email: 'bob@' }, 'Email is invalid'],
  ])('when the payload is %j, then "%s"', (input, message) => {
    expect(firstMessage(updateUserSchema, input)).toBe(message);
  });
});

describe('resetPasswordSchema', () => {
  it.each([
    [{ newPassword: '12345' }, 'Password must be at least 6 characters long'],
    [{}, 'Password must be at least 6 characters long'],
    [{ newPassword: 'p'.repeat(129) }, 'Password must not exceed 128 characters'],
  ])('when the payload is %j, then "%s"', (input, message) => {
    expect(firstMessage(resetPasswordSchema, input)).toBe(message);
  });

  it('when the new password has 6 characters, then it passes', () => {
    expect(resetPasswordSchema.parse({ newPassword: '123456' })).toEqual({ newPassword: '123456' });
  });
});

describe('field issues', () => {
  it('when several fields fail, then toFieldIssues lists each issue and fieldErrors keeps the first per field', () => {
    const result = createUserSchema.safeParse({ username: 'a!', password: '' });
    expect(result.success).toBe(false);
    const issues = toFieldIssues(result.error!);
    expect(issues[0]).toEqual({
      field: 'username',
      message: 'Username must be at least 3 characters',
    });
    // 'a!' breaks two username rules: both are listed, but a form shows only the first.
    expect(issues).toContainEqual({
      field: 'username',
      message: 'Username must contain only alphanumeric characters, hyphens, and underscores',
    });
    expect(issues).toContainEqual({ field: 'password', message: 'Password is required' });
    expect(fieldErrors(result.error!)).toEqual({
      username: 'Username must be at least 3 characters',
      password: 'Password is required',
    });
  });
});

describe('route ids', () => {
  it('are positive whole numbers of 1 to 15 digits; anything else names nothing', () => {
    expect(
      ['1', '42', '007', '000000000000001', '999999999999999'].map(
        (raw) => routeIdSchema.safeParse(raw).data,
      ),
    ).toEqual([1, 42, 7, 1, 999999999999999]);
    for (const raw of [
      undefined,
      '',
      '0',
      '000',
      '-1',
      '1.5',
      '1e3',
      ' 1',
      '0x10',
      '0000000000000001',
      '1000000000000000',
    ]) {
      expect(routeIdSchema.safeParse(raw).success, String(raw)).toBe(false);
    }
  });
});
