/**
 * False while the server renders and while React hydrates what it rendered, true from the render right
 * after: for controls that act differently before the island's script runs (a form the browser submits
 * itself) and after (the island's handler), or that stay disabled until it can answer them.
 */
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
