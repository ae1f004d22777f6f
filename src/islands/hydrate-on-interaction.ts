/**
 * `client:interaction`: an island that arrives rendered and usable as HTML (links, a GET search form,
 * status taps recorded by an inline script) hydrates when a person first reaches for it (pointer,
 * touch, focus), or after the milliseconds its value gives (when it has something to change on its
 * own, such as "Updated … ago"). Its modules are not preloaded: a 3G phone whose reader only reads
 * downloads none of them, and the page is interactive once painted. A touch inside `data-hydrate-ignore`
 * (a control the page answers without the island) does not start it.
 */
import type { ClientDirective } from 'astro';

const INTERACTIONS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

const hydrateOnInteraction: ClientDirective = (load, options, island) => {
  let started = false;
  const hydrate = async (event?: Event) => {
    if (
      started ||
      (event?.target instanceof Element && event.target.closest('[data-hydrate-ignore]'))
    )
      return;
    started = true;
    clearTimeout(timer);
    for (const type of INTERACTIONS) island.removeEventListener(type, hydrate, true);
    await (
      await load()
    )();
  };
  const timer = typeof options.value === 'number' ? setTimeout(hydrate, options.value) : undefined;
  for (const type of INTERACTIONS)
    island.addEventListener(type, hydrate, { capture: true, passive: true });
};

export default hydrateOnInteraction;
