/**
 * What a confirmation modal does once its action is confirmed (delete a user, revoke a token, reset
 * two-factor, delete a webhook): run it once at a time, hand its result on, or show why it failed; and
 * no closing while it runs.
 */
import { useState } from 'react';
import { failureText } from './failure-text';

export function useConfirmedAction<Result>({
  run,
  onDone,
  onClose,
  failedText,
}: {
  run: () => Promise<Result>;
  onDone: (result: Result) => void;
  onClose: () => void;
  /** Shown when the failure carries no message of its own. */
  failedText: () => string;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setFailure(null);
    setBusy(true);
    try {
      return onDone(await run());
    } catch (error) {
      setFailure(failureText(error, failedText()));
    }
    setBusy(false);
  }

  const close = () => !busy && onClose();
  return { failure, busy, confirm, close };
}
