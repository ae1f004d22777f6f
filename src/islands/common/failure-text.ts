import { ApiError, errorText } from '~/shared/api-client';

/** The server's explanation when it answered with one, else the action's own failure text. */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.body ? errorText(error) : fallback;
}
