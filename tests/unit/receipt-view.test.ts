/** What the details modal and the receipt page both show: the status history as a timeline. */
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '~/shared/format';
import { statusTimeline } from '~/shared/receipt-view';
import { readMessagesIn, restoreLocale } from '../support/messages-locale';

const history = [
  { status: 'Received at MIA warehouse', at: '2026-03-01T10:00:00.000Z' },
  { status: 'In-Transit', at: '2026-03-04T15:30:00.000Z' },
  { status: 'Delivered', at: '2026-03-09T08:06:00.000Z' },
];

describe('statusTimeline', () => {
  afterEach(restoreLocale);

  it('when a history is given oldest first, then the timeline starts with the newest, which is the current status', () => {
    const timeline = statusTimeline(history);
    expect(timeline.map((entry) => [entry.label, entry.at, entry.current])).toEqual([
      ['Delivered', '2026-03-09T08:06:00.000Z', true],
      ['In-Transit', '2026-03-04T15:30:00.000Z', false],
      ['Received at MIA warehouse', '2026-03-01T10:00:00.000Z', false],
    ]);
    expect(timeline.map((entry) => entry.tone)).toEqual(['success', 'info', 'neutral']);
    expect(timeline[0]!.when).toBe(formatDateTime('2026-03-09T08:06:00.000Z'));
  });

  it('when the reader is Dutch, then known statuses and the date and time are Dutch', () => {
    readMessagesIn('nl');
    const timeline = statusTimeline(history);
    expect(timeline.map((entry) => entry.label)).toEqual([
      'Afgeleverd',
      'Onderweg',
      'Ontvangen in magazijn MIA',
    ]);
    expect(timeline[0]!.when).toMatch(/^\d{2}-\d{2}-\d{4}, \d{2}:\d{2}$/);
  });

  it("when the history is empty, then so is the timeline; the caller's own history is left as it was", () => {
    expect(statusTimeline([])).toEqual([]);
    const copy = structuredClone(history);
    statusTimeline(copy);
    expect(copy).toEqual(history);
  });
});
