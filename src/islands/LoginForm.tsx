/**
 * The sign-in form of spec "Login". Server-rendered as a plain form post to /login, so it works before
 * (or without) JavaScript; once hydrated it validates with the shared schema and signs in with fetch.
 */
import { useEffect, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { api, ApiError, errorText } from '~/shared/api-client';
import { STORED_USER_KEY } from '~/shared/constants';
import { formatCountdown, rateLimitMessage } from '~/shared/format';
import { fieldErrors, loginSchema, type PublicUser } from '~/shared/validation';

type Field = 'username' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

/** What the server's answer to a form post hands back: the typed username and what went wrong. */
export interface LoginFormProps {
  username?: string;
  error?: string;
  fieldErrors?: FieldErrors;
  /** Seconds the login stays rate limited; starts the countdown. */
  retryAfter?: number;
}

/** Lowercases the username as it is typed, keeping the caret where it was. */
function lowercaseInPlace(input: HTMLInputElement): void {
  const lowered = input.value.toLowerCase();
  if (lowered === input.value) return;
  const { selectionStart, selectionEnd } = input;
  input.value = lowered;
  input.setSelectionRange(selectionStart, selectionEnd);
}

function rememberUser(user: PublicUser): void {
  try {
    localStorage.setItem(STORED_USER_KEY, JSON.stringify(user));
  } catch {
    // Storage may be disabled; the session cookie is what signs the user in.
  }
}

export default function LoginForm(props: LoginFormProps) {
  const [errors, setErrors] = useState<FieldErrors>(props.fieldErrors ?? {});
  const [error, setError] = useState(props.error ?? '');
  const [pending, setPending] = useState(false);
  const [passwordVisible, setPasswordVisible] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [lockedUntil, setLockedUntil] = useState(() => (props.retryAfter ? Date.now() + props.retryAfter * 1000 : 0));
  const [secondsLeft, setSecondsLeft] = useState(props.retryAfter ?? 0);
  const countingDown = secondsLeft > 0;

  const usernameInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // The inputs are uncontrolled so that hydration keeps what was typed before it; lowercase that too.
    if (usernameInput.current) lowercaseInPlace(usernameInput.current);
    setHydrated(true);
  }, []);

  useEffect(() => {
    if (!lockedUntil) return;
    // Counted from a deadline, not by decrements, so a throttled background tab stays right.
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((lockedUntil - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) setLockedUntil(0);
    }, 1000);
    return () => clearInterval(timer);
  }, [lockedUntil]);

  function edit(field: Field) {
    return (event: ChangeEvent<HTMLInputElement>) => {
      if (field === 'username') lowercaseInPlace(event.target);
      setErrors((current) => ({ ...current, [field]: undefined }));
      setError('');
    };
  }

  function lockFor(seconds: number) {
    setLockedUntil(Date.now() + seconds * 1000);
    setSecondsLeft(seconds);
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || countingDown) return;
    const form = event.currentTarget;
    setPending(true);
    const parsed = loginSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) {
      setPending(false);
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setError('');
    try {
      const data = await api<{ user?: PublicUser } | null>('POST', '/auth/login', parsed.data);
      if (!data?.user) throw new Error('Login failed');
      rememberUser(data.user);
      // Stays pending: the button keeps saying 'Signing in...' until the dashboard replaces the page.
      window.location.assign('/dashboard');
    } catch (failure) {
      setPending(false);
      const retryAfter = failure instanceof ApiError && failure.status === 429 ? failure.body?.retryAfter : undefined;
      if (retryAfter && retryAfter > 0) lockFor(retryAfter);
      else setError(failure instanceof ApiError && failure.status === 429 ? rateLimitMessage(undefined) : errorText(failure));
    }
  }

  const message = countingDown ? rateLimitMessage(secondsLeft) : error;
  const buttonText = countingDown ? `Wait ${formatCountdown(secondsLeft)}` : pending ? 'Signing in...' : 'Sign in';

  return (
    <form method="post" action="/login" noValidate onSubmit={submit} className="flex flex-col gap-4">
      {message && (
        <div role="alert" className="alert alert-error alert-soft text-sm">
          {message}
        </div>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor="login-username" className="text-sm font-medium">
          Username
        </label>
        <input
          id="login-username"
          name="username"
          ref={usernameInput}
          className={errors.username ? 'input input-error w-full' : 'input w-full'}
          defaultValue={props.username}
          onChange={edit('username')}
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-invalid={errors.username ? true : undefined}
          aria-describedby={errors.username ? 'login-username-error' : undefined}
        />
        {errors.username && (
          <p id="login-username-error" className="text-sm text-error">
            {errors.username}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="login-password" className="text-sm font-medium">
          Password
        </label>
        <div className={errors.password ? 'input input-error w-full pr-1' : 'input w-full pr-1'}>
          <input
            id="login-password"
            name="password"
            type={passwordVisible ? 'text' : 'password'}
            className="grow"
            onChange={edit('password')}
            autoComplete="current-password"
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? 'login-password-error' : undefined}
          />
          {/* The toggle needs JavaScript, so it appears only once the form is hydrated. */}
          {hydrated && (
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={passwordVisible ? 'Hide password' : 'Show password'}
              onClick={() => setPasswordVisible((visible) => !visible)}
            >
              <EyeIcon crossed={passwordVisible} />
            </button>
          )}
        </div>
        {errors.password && (
          <p id="login-password-error" className="text-sm text-error">
            {errors.password}
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary mt-2 w-full" disabled={pending || countingDown}>
        {buttonText}
      </button>
    </form>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" className="h-5 w-5" aria-hidden="true">
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M3 3l18 18" />}
    </svg>
  );
}
