/** Token Management's OAuth2 panel: the button, the flow's progress and the notes. */
import { useId } from 'react';
import { m } from '~/paraglide/messages.js';
import type { OAuthStep } from './use-oauth-popup';

const STEP_TEXTS: Record<OAuthStep, () => string> = {
  'getting-url': () => m.tokens_step_getting_url(),
  'opening-login': () => m.tokens_step_opening_login(),
  waiting: () => m.tokens_step_waiting(),
};

interface OAuthPanelProps {
  step: OAuthStep | null;
  /** Where Token Management should be opened instead, when this page is at another address than PUBLIC_URL. */
  elsewhereUrl: string | null;
  onStart: () => void;
}

export function OAuthPanel({ step, elsewhereUrl, onStart }: OAuthPanelProps) {
  const titleId = useId();
  return (
    <section className="surface rounded-box border border-base-300 p-5" aria-labelledby={titleId}>
      <h2 id={titleId} className="mb-2 text-lg font-semibold">
        {m.tokens_oauth_title()}
      </h2>
      <p className="mb-4 text-sm opacity-80">{m.tokens_oauth_intro()}</p>
      {elsewhereUrl && <ElsewhereWarning url={elsewhereUrl} />}
      <button
        type="button"
        className="btn btn-primary"
        onClick={onStart}
        disabled={step !== null || elsewhereUrl !== null}
      >
        {step && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {m.tokens_oauth_start()}
      </button>
      {step && (
        <p role="status" className="mt-3 text-sm">
          {STEP_TEXTS[step]()}
        </p>
      )}
      <ul className="mt-4 list-disc space-y-1 pl-5 text-sm opacity-80">
        <li>{m.tokens_oauth_note_popup()}</li>
        <li>{m.tokens_oauth_note_stored()}</li>
        <li>{m.tokens_oauth_note_closes()}</li>
        <li>{m.tokens_oauth_note_blocked()}</li>
      </ul>
    </section>
  );
}

/** The provider sends the admin back to PUBLIC_URL's address: the sign-in can only finish there. */
export function ElsewhereWarning({ url }: { url: string }) {
  return (
    <p role="alert" className="alert alert-warning alert-soft mb-4 block text-sm">
      {m.tokens_origin_elsewhere({ origin: new URL(url).origin })}{' '}
      <a href={url} className="link font-medium">
        {url}
      </a>
    </p>
  );
}
