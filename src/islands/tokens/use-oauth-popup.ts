/**
 * The OAuth2 popup flow of spec section 4: get the authorization URL, show the provider's login in a
 * centred popup, then wait for the callback page's message. Closing the popup cancels the flow;
 * messages from other origins or other windows are ignored.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '~/shared/api-client';
import { OAUTH_POPUP } from '~/shared/constants';
import { oauthFailureText, popupFeatures, readOAuthPopupMessage, type OAuthStart } from '~/shared/tokens';
import { failureText } from '../common/failure-text';

export type OAuthOutcome = { ok: true } | { ok: false; text: string };

export const OAUTH_STEPS = {
  gettingUrl: 'Getting authorization URL...',
  openingLogin: 'Opening login window...',
  waiting: 'Waiting for authorization...',
} as const;
export type OAuthStep = (typeof OAUTH_STEPS)[keyof typeof OAUTH_STEPS];

const POPUP_NAME = 'oauth2-login';

/** The provider's page has loaded in the popup: another origin's (unreadable), or our own sandbox's. */
function loginShown(popup: Window): boolean {
  try {
    return popup.location.href !== 'about:blank' && popup.document.readyState === 'complete';
  } catch {
    return true;
  }
}

/** `step` is the progress text while the flow runs, null when idle. */
export function useOAuthPopup(onOutcome: (outcome: OAuthOutcome) => void) {
  const [step, setStep] = useState<OAuthStep | null>(null);
  /** Ends the running flow without a report (the screen went away). */
  const abandon = useRef<(() => void) | null>(null);
  const report = useRef(onOutcome);
  report.current = onOutcome;

  useEffect(() => () => abandon.current?.(), []);

  const start = useCallback(async () => {
    if (abandon.current) return;
    // Opened straight from the click, before any await, so that popup blockers see the user's gesture.
    const popup = window.open('about:blank', POPUP_NAME, popupFeatures(window, OAUTH_POPUP));
    if (!popup) return report.current({ ok: false, text: 'Failed to open popup window. Please allow popups for this site.' });

    let running = true;
    const stop = () => {
      running = false;
      abandon.current = null;
      window.removeEventListener('message', onMessage);
      clearInterval(closedCheck);
      setStep(null);
    };
    const finish = (outcome: OAuthOutcome) => {
      if (!running) return;
      stop();
      if (!popup.closed) popup.close();
      report.current(outcome);
    };
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const message = readOAuthPopupMessage(event.data);
      if (!message) return;
      finish(message.type === 'oauth2_success' ? { ok: true } : { ok: false, text: oauthFailureText(message.error_description) });
    }
    let opening = false;
    const closedCheck = setInterval(() => {
      if (popup.closed) return finish({ ok: false, text: 'Authorization was cancelled' });
      if (opening && loginShown(popup)) {
        opening = false;
        setStep(OAUTH_STEPS.waiting);
      }
    }, OAUTH_POPUP.closedCheckMs);
    window.addEventListener('message', onMessage);
    abandon.current = stop;

    setStep(OAUTH_STEPS.gettingUrl);
    let answer: OAuthStart | null;
    try {
      answer = await api<OAuthStart | null>('POST', '/tokens/oauth/authorize');
    } catch (error) {
      return finish({ ok: false, text: failureText(error, 'Failed to initiate OAuth2 flow') });
    }
    if (!running) return;
    if (!answer?.authorizationUrl) return finish({ ok: false, text: 'Failed to get authorization URL' });
    setStep(OAUTH_STEPS.openingLogin);
    opening = true;
    popup.location.href = answer.authorizationUrl;
    popup.focus();
  }, []);

  return { step, start };
}
