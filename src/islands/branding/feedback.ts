import { useEffect, useState } from 'react';
import { FEEDBACK_SHORT_MS } from '~/shared/constants';

/** A banner's text; an object, so that the same text shown twice in a row restarts its timer. */
export interface Feedback {
  tone: 'success' | 'error';
  text: string;
}

/** The error and success banners of the branding screens: a success goes after 3 s, an error stays until the next action. */
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
