/** Spec "Token Management", OAuth2 panel: the button, the flow's progress and the notes. */
import { useId } from 'react';
import type { OAuthStep } from './use-oauth-popup';

interface OAuthPanelProps {
  step: OAuthStep | null;
  onStart: () => void;
}

export function OAuthPanel({ step, onStart }: OAuthPanelProps) {
  const titleId = useId();
  return (
    <section className="surface rounded-box border border-base-300 p-5" aria-labelledby={titleId}>
      <h2 id={titleId} className="mb-2 text-lg font-semibold">
        OAuth2 Authorization
      </h2>
      <p className="mb-4 text-sm opacity-80">Sign in at the logistics provider to get a new access token and refresh token.</p>
      <button type="button" className="btn btn-primary" onClick={onStart} disabled={step !== null}>
        {step && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        Get Access &amp; Refresh Token
      </button>
      {step && (
        <p role="status" className="mt-3 text-sm">
          {step}
        </p>
      )}
      <ul className="mt-4 list-disc space-y-1 pl-5 text-sm opacity-80">
        <li>A popup window opens with the provider's login page.</li>
        <li>Once you authorize the portal, the tokens are stored automatically.</li>
        <li>The popup closes itself when the authorization is done.</li>
        <li>If nothing opens, allow popups for this site and try again.</li>
      </ul>
    </section>
  );
}
