import { useEffect, useState } from 'react';
import { pickedFileProblem, type UploadRules } from '~/shared/branding';
import { FEEDBACK_SHORT_MS } from '~/shared/constants';
import { failureText } from '../common/failure-text';

/** A banner's text; an object, so that the same text shown twice in a row restarts its timer. */
export interface Feedback {
  tone: 'success' | 'error';
  text: string;
}

/**
 * The error and success banners of the branding screens: a success goes after 3 s, an error stays
 * until the next action.
 */
export function useFeedback() {
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  useEffect(() => {
    if (feedback?.tone !== 'success') return;
    const timer = setTimeout(() => setFeedback(null), FEEDBACK_SHORT_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  return {
    feedback,
    succeed: (text: string) => setFeedback({ tone: 'success', text }),
    fail: (text: string) => setFeedback({ tone: 'error', text }),
    clear: () => setFeedback(null),
  };
}

/**
 * One change of a branding screen: the busy state while it runs, the new info applied to the screen
 * and the page, and the success or error banner (useFeedback) afterwards.
 */
export function useBrandingChange<Info, OtherChange extends string>(apply: (info: Info) => void) {
  type Busy = 'uploading' | OtherChange;
  const [busy, setBusy] = useState<Busy | null>(null);
  const { feedback, succeed, fail, clear } = useFeedback();

  async function change(
    request: () => Promise<Info>,
    kind: Busy,
    success: string,
    failure: string,
  ) {
    clear();
    setBusy(kind);
    try {
      apply(await request());
      succeed(success);
    } catch (error) {
      fail(failureText(error, failure));
    }
    setBusy(null);
  }

  /** The picked file, checked in the browser first by the rules the server applies, then sent by `send`. */
  function upload(
    file: File,
    rules: UploadRules,
    send: (form: FormData) => Promise<Info>,
    success: string,
    failure: string,
  ) {
    const problem = pickedFileProblem(file, rules);
    if (problem) return fail(problem);
    const form = new FormData();
    form.append(rules.field, file);
    return change(() => send(form), 'uploading', success, failure);
  }

  return { busy, feedback, change, upload };
}
