import type { Feedback } from './feedback';

export function FeedbackBanner({ feedback }: { feedback: Feedback | null }) {
  if (!feedback) return null;
  const error = feedback.tone === 'error';
  return (
    <div
      role={error ? 'alert' : 'status'}
      className={`alert alert-soft mb-4 ${error ? 'alert-error' : 'alert-success'}`}
    >
      <span>{feedback.text}</span>
    </div>
  );
}
