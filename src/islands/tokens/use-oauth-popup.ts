/**
 * The OAuth2 popup flow: get the authorization URL, show the provider's login in a
 * centred popup, then wait for the callback page's message. Closing the popup cancels the flow;
 * messages from other origins or other windows are ignored.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import { OAUTH_POPUP } from '~/shared/constants';
import {
  oauthFailureText,
  popupFeatures,
  readOAuthPopupMessage,
  type OAuthStart,
} from '~/shared/tokens';
import { failureText } from '../common/failure-text';

export type OAuthOutcome = { ok: true } | { ok: false; text: string };

/** Where the flow is: fetching the provider's URL, loading its login page in the popup, waiting for the admin. */
export type OAuthStep = 'getting-url' | 'opening-login' | 'waiting';

const POPUP_NAME = 'oauth2-login';
/**
 * The callback page posts its message and closes itself: the close can be seen before the message is
 * handled, so a closed popup means "cancelled" only once this has passed without a message.
 */
const CLOSED_GRACE_MS = 500;

/** The provider's page has loaded in the popup: another origin's (unreadable), or our own sandbox's. */
function loginShown(popup: Window): boolean {
  try {
    return popup.location.href !== 'about:blank' && popup.document.readyState === 'complete';
  } catch {
    return true;
  }
}

/** Pages of the portal itself the popup passes through on the way: the built-in sandbox's sign-in, and the callback. */
const EXPECTED_OWN_PAGES = ['/sandbox/oauth/authorize', '/admin/tokens/callback'];

/** The popup shows a page of the portal that is not on the way (its sign-in, say, without a session): its path. */
function strayPage(popup: Window): string | null {
  try {
    const { origin, pathname } = popup.location;
    if (origin !== window.location.origin || popup.location.href === 'about:blank') return null;
    return EXPECTED_OWN_PAGES.includes(pathname) ? null : pathname;
  } catch {
    // Another origin's page, unreadable: the provider's.
    return null;
  }
}

const noSubscription = () => () => {};

/**
 * The address Token Management should be opened at when this page is at another one (the provider sends
 * the admin back to PUBLIC_URL's origin, whose session this page does not share); null when here is right.
 */
export function useTokenPageElsewhere(publicOrigin: string): string | null {
  return useSyncExternalStore(
    noSubscription,
    () => (window.location.origin === publicOrigin ? null : `${publicOrigin}/admin/tokens`),
    () => null,
  );
}

/** `step` is the flow's progress while it runs, null when idle. */
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
    if (!popup) return report.current({ ok: false, text: m.tokens_popup_blocked() });

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
      finish(
        message.type === 'oauth2_success'
          ? { ok: true }
          : { ok: false, text: oauthFailureText(message.error_description) },
      );
    }
    let opening = false;
    const closedCheck = setInterval(() => {
      if (popup.closed) {
        clearInterval(closedCheck);
        setTimeout(() => finish({ ok: false, text: m.tokens_oauth_cancelled() }), CLOSED_GRACE_MS);
        return;
      }
      // Sent to another page of the portal instead of the provider's sign-in: it will never come back.
      const stray = strayPage(popup);
      if (stray) return finish({ ok: false, text: m.tokens_popup_stray({ path: stray }) });
      if (opening && loginShown(popup)) {
        opening = false;
        setStep('waiting');
      }
    }, OAUTH_POPUP.closedCheckMs);
    window.addEventListener('message', onMessage);
    abandon.current = stop;

    setStep('getting-url');
    let answer: OAuthStart | null;
    try {
      answer = await api('POST', '/tokens/oauth/authorize');
    } catch (error) {
      return finish({ ok: false, text: failureText(error, m.tokens_oauth_start_failed()) });
    }
    if (!running) return;
    if (!answer?.authorizationUrl) return finish({ ok: false, text: m.tokens_oauth_no_url() });
    setStep('opening-login');
    opening = true;
    popup.location.href = answer.authorizationUrl;
    popup.focus();
  }, []);

  return { step, start };
}
