/**
 * `npm run admin -- <command>`: what an operator does at the server's console when nobody can do it
 * in the portal (scripts/admin.mjs runs it on the built code). Each command is one entry of
 * ADMIN_COMMANDS; its actions are audited with the actor name `console`.
 */
import { parseArgs } from 'node:util';
import { createUserSchema, resetPasswordSchema } from '~/shared/validation';
import type { Config } from '../config';
import { AppError } from '../errors';
import { migrationStatus, UnknownMigrationsError } from '../db/migrate';
import type { User } from '../db/models';
import type { AuditActor } from '../services/audit';
import {
  generatePassword,
  type PasswordHasher,
  type AccountNoticeDeps,
  resetTwoFactor,
  createUser,
  listUsers,
  resetPassword,
} from '../services/accounts';

export interface AdminDeps extends AccountNoticeDeps {
  config: Pick<Config, 'databaseUrl' | 'twoFactor' | 'productName'>;
  passwords: PasswordHasher;
}

export interface ConsoleIO {
  print(line: string): void;
  printError(line: string): void;
  /** Asks for a secret without showing it as typed; null when there is no terminal to ask at. */
  askSecret(prompt: string): Promise<string | null>;
}

/** The portal's parts the commands use, opened only when a command runs (`--help` needs none). */
export interface AdminConsole {
  open(): Promise<AdminDeps>;
  close(): Promise<void>;
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];
type Values = Record<string, string | boolean | undefined>;

interface AdminCommand {
  /** The arguments after the command's name, as usage shows them. */
  synopsis: string;
  summary: string;
  options: Options;
  run(deps: AdminDeps, io: ConsoleIO, positionals: string[], values: Values): Promise<void>;
}

/** A refusal the operator can act on: printed as it is, and the command exits with 1. */
export class ConsoleRefusal extends Error {}

const CONSOLE_ACTOR: AuditActor = { id: null, username: 'console', clientAddress: null };

function oneUsername(positionals: string[], synopsis: string): string {
  const [username, ...rest] = positionals;
  if (!username || rest.length > 0) throw new ConsoleRefusal(`Expected one username: ${synopsis}`);
  return username.toLowerCase();
}

async function findUser(deps: AdminDeps, username: string): Promise<User> {
  const user = await deps.db.models.User.findOne({ where: { username } });
  if (!user)
    throw new ConsoleRefusal(
      `No user named "${username}" in ${deps.config.databaseUrl.replace(/\/\/[^@/]*@/, '//')}.`,
    );
  return user;
}

/** The new password: given, generated, or typed twice at the terminal (Enter alone generates one). */
async function newPassword(
  io: ConsoleIO,
  values: Values,
): Promise<{ password: string; generated: boolean }> {
  if (typeof values.password === 'string' && values.generate)
    throw new ConsoleRefusal('Give --password or --generate, not both.');
  if (values.generate) return { password: generatePassword(), generated: true };
  let password = typeof values.password === 'string' ? values.password : null;
  if (password === null) {
    password = await io.askSecret('New password (Enter alone generates one): ');
    if (password === null)
      throw new ConsoleRefusal(
        'No terminal to ask for the password at: pass --password <password> or --generate.',
      );
    if (password === '') return { password: generatePassword(), generated: true };
    if ((await io.askSecret('The same password again: ')) !== password)
      throw new ConsoleRefusal('The two passwords differ; nothing was changed.');
  }
  const checked = resetPasswordSchema.safeParse({ newPassword: password });
  if (!checked.success)
    throw new ConsoleRefusal(checked.error.issues.map((issue) => issue.message).join('; '));
  return { password: checked.data.newPassword, generated: false };
}

/** Rows as columns padded to their widest cell, the header first. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

const ADMIN_COMMANDS: ReadonlyMap<string, AdminCommand> = new Map<string, AdminCommand>([
  [
    'disable-2fa',
    {
      synopsis: 'disable-2fa <username>',
      summary: "Turns off a locked-out user's two-factor sign-in and deletes their recovery codes.",
      options: {},
      async run(deps, io, positionals) {
        const user = await findUser(deps, oneUsername(positionals, this.synopsis));
        const wasOn = user.twoFactorEnabledAt !== null;
        await resetTwoFactor(deps, CONSOLE_ACTOR, user.id);
        io.print(
          wasOn
            ? `Two-factor sign-in of "${user.username}" is off and their recovery codes are ` +
                'deleted: they sign in with their password alone.'
            : `"${user.username}" had no two-factor sign-in on; any setup they had begun is cleared.`,
        );
      },
    },
  ],
  [
    'create-admin',
    {
      synopsis: 'create-admin <username> [--password <password>]',
      summary: 'Creates an admin with the given password, or with a generated one printed once.',
      options: { password: { type: 'string' } },
      async run(deps, io, positionals, values) {
        const username = oneUsername(positionals, this.synopsis);
        const generated = typeof values.password !== 'string';
        const password = generated ? generatePassword() : (values.password as string);
        const checked = createUserSchema.safeParse({ username, password, role: 'admin' });
        if (!checked.success)
          throw new ConsoleRefusal(checked.error.issues.map((issue) => issue.message).join('; '));
        try {
          await createUser(deps, CONSOLE_ACTOR, { ...checked.data, password });
        } catch (error) {
          // A taken username: the service's own message.
          if (error instanceof AppError) throw new ConsoleRefusal(error.message);
          throw error;
        }
        io.print(`Admin "${checked.data.username}" created.`);
        if (generated)
          io.print(`Password (shown only once; change it under Profile Settings): ${password}`);
      },
    },
  ],
  [
    'list-admins',
    {
      synopsis: 'list-admins',
      summary:
        'Lists the admins and admin-viewers: role, whether active, two-factor sign-in, last sign-in.',
      options: {},
      async run(deps, io, positionals) {
        if (positionals.length > 0)
          throw new ConsoleRefusal(`Expected no arguments: ${this.synopsis}`);
        const admins = (await listUsers(deps)).filter((user) => user.role !== 'viewer');
        io.print(
          table([
            ['USERNAME', 'ROLE', 'ACTIVE', '2FA', 'LAST SIGN-IN'],
            ...admins.map((user) => [
              user.username,
              user.role,
              user.isActive ? 'yes' : 'no',
              user.twoFactorEnabled ? 'on' : 'off',
              user.lastLogin ? new Date(user.lastLogin).toISOString() : 'never',
            ]),
          ]).join('\n'),
        );
      },
    },
  ],
  [
    'reset-password',
    {
      synopsis: 'reset-password <username> [--password <password> | --generate]',
      summary:
        'Sets a new password (asked for, given, or generated and printed), ends all sessions of ' +
        'the user and revokes their API tokens.',
      options: { password: { type: 'string' }, generate: { type: 'boolean' } },
      async run(deps, io, positionals, values) {
        const user = await findUser(deps, oneUsername(positionals, this.synopsis));
        const { password, generated } = await newPassword(io, values);
        await resetPassword(deps, CONSOLE_ACTOR, user.id, password);
        io.print(
          `Password of "${user.username}" reset; all their sessions have ended and their API tokens are revoked.`,
        );
        if (generated) io.print(`New password: ${password}`);
      },
    },
  ],
]);

function usage(): string {
  return [
    'Usage: npm run admin -- <command> [arguments]',
    '',
    'Commands:',
    ...[...ADMIN_COMMANDS.values()].flatMap(({ synopsis, summary }) => [
      `  ${synopsis}`,
      `      ${summary}`,
    ]),
    '',
    'It uses the configuration of `npm run serve` (the environment and .env) and the built portal (npm run build).',
  ].join('\n');
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** Runs one command line; answers the exit code. */
export async function runAdminCommand(
  argv: string[],
  portal: AdminConsole,
  io: ConsoleIO,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || isHelp(name)) {
    (name === undefined ? io.printError : io.print)(usage());
    return name === undefined ? 1 : 0;
  }
  const command = ADMIN_COMMANDS.get(name);
  if (!command) {
    io.printError(`Unknown command "${name}".\n\n${usage()}`);
    return 1;
  }
  if (rest.some(isHelp)) {
    io.print(`Usage: npm run admin -- ${command.synopsis}\n\n${command.summary}`);
    return 0;
  }
  let parsed: { positionals: string[]; values: Values };
  try {
    parsed = parseArgs({
      args: rest,
      options: command.options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.printError(
      `${error instanceof Error ? error.message : String(error)}\nUsage: npm run admin -- ${command.synopsis}`,
    );
    return 1;
  }
  try {
    const deps = await portal.open();
    const { pending, unknown } = await migrationStatus(deps.db.sequelize);
    if (unknown.length > 0) throw new ConsoleRefusal(new UnknownMigrationsError(unknown).message);
    if (pending.length > 0) {
      throw new ConsoleRefusal(
        `The database is behind this version of the portal (${pending.length} migrations to run): ` +
          'start the portal once, then try again.',
      );
    }
    await command.run(deps, io, parsed.positionals, parsed.values);
    return 0;
  } catch (error) {
    if (!(error instanceof ConsoleRefusal)) throw error;
    io.printError(error.message);
    return 1;
  } finally {
    await portal.close();
  }
}
