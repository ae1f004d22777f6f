/**
 * The script receipts.astro inlines until the receipts island hydrates (what it does: early-clicks.ts).
 * A module of its own so that the island's code does not carry it.
 */
import { EARLY_ACTION_KEYS, SEARCH_PAUSE_MS } from './early-clicks';

/** Runs in the page, inlined by receipts.astro: self-contained, it uses nothing from around it. */
function earlyActions(keys: typeof EARLY_ACTION_KEYS, searchPauseMs: number): void {
  const root = document.documentElement;
  const ready = () => keys.hydrated in root.dataset;
  document.addEventListener('click', (event) => {
    const button =
      event.target instanceof Element && event.target.closest<HTMLElement>('[data-tracking-map]');
    if (button && !ready()) root.dataset[keys.pendingMap] = button.dataset.trackingMap;
  });
  document.addEventListener('change', (event) => {
    const form = (event.target as HTMLSelectElement).form;
    if (form && 'submitOnChange' in form.dataset && !ready()) form.requestSubmit();
  });
  document.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    if (!('replayTracking' in form.dataset) || ready()) return;
    event.preventDefault();
    root.dataset[keys.pendingTracking] = String(new FormData(form).get('trackingNumber'));
  });

  let pause: ReturnType<typeof setTimeout> | undefined;
  const searchAsTyped = async (box: HTMLInputElement) => {
    const typed = box.value;
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(box.form!))
      if (String(value).trim()) query.set(name, String(value).trim());
    const url = `${location.pathname}${query.size ? `?${query}` : ''}`;
    let html: string;
    try {
      const response = await fetch(url, { headers: { Accept: 'text/html' } });
      if (!response.ok) return;
      html = await response.text();
    } catch {
      return;
    }
    // Typed on meanwhile (its own pause runs), or the island took over: this answer is not wanted.
    const island = box.closest('astro-island');
    if (ready() || box.value !== typed || !island) return;
    // Only the island is wanted: the page's <main> is parsed (inert until inserted; this script's own
    // text is parsed as a script there, not searched as text), and its island taken.
    const start = html.indexOf('<main');
    const end = html.lastIndexOf('</main>');
    if (start < 0 || end < start) return;
    const template = document.createElement('template');
    template.innerHTML = html.slice(start, end + '</main>'.length);
    const answered = template.content.querySelector('astro-island');
    if (!answered) return;
    history.pushState(null, '', url);
    island.replaceWith(answered);
    const next = document.getElementById(box.id);
    if (!(next instanceof HTMLInputElement)) return;
    next.focus();
    next.setSelectionRange(typed.length, typed.length);
  };
  // Back or Forward between such searches: the page of that address (the island restores its own entries).
  addEventListener('popstate', () => {
    if (!ready()) location.reload();
  });
  document.addEventListener('input', (event) => {
    const box = event.target as HTMLInputElement;
    if (!box.form || !('searchAsTyped' in box.form.dataset) || ready()) return;
    clearTimeout(pause);
    pause = setTimeout(() => void searchAsTyped(box), searchPauseMs);
  });
}

export const EARLY_ACTIONS_SCRIPT =
  `(${earlyActions.toString()})` + `(${JSON.stringify(EARLY_ACTION_KEYS)},${SEARCH_PAUSE_MS})`;
