/**
 * An admin screen's controls, disabled (and looking it) until its island has hydrated: a tap before
 * then would reach no handler and be lost. A disabled fieldset disables every control in it at once.
 */
import type { ReactNode } from 'react';
import { useHydrated } from './use-hydrated';

export function ReadyFieldset({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className="contents">
      {children}
    </fieldset>
  );
}
