/**
 * "Share" in the receipt details modal: makes a share link (POST /api/receipts/{id}/share) and shows
 * its address once, with a copy button. Only the link's hash is kept, so the address is not shown again;
 * when the reader's link to the receipt still works, the answer says when it was made, and a new link
 * is made only on purpose (replace=true), which stops the old one.
 */
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, ApiError, errorText } from '~/shared/api-client';
import { formatDate } from '~/shared/format';
import type { CreatedShareLink } from '~/shared/share-links';
import { CopyField } from '../common/CopyField';

type View =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'made'; link: CreatedShareLink }
  | { kind: 'exists'; message: string }
  | { kind: 'failed'; message: string };

export function ShareReceipt({ receiptId }: { receiptId: number }) {
  const [view, setView] = useState<View>({ kind: 'idle' });

  async function share(replace: boolean) {
    setView({ kind: 'busy' });
    try {
      setView({
        kind: 'made',
        link: await api('POST', `/receipts/${receiptId}/share${replace ? '?replace=true' : ''}`),
      });
    } catch (error) {
      const exists = error instanceof ApiError && error.errorType === 'CONFLICT';
      setView({ kind: exists ? 'exists' : 'failed', message: errorText(error) });
    }
  }

  if (view.kind === 'made') {
    const { link } = view;
    return (
      <div className="mt-4 flex flex-col gap-2 rounded-box border border-base-content/10 p-3 text-sm">
        <CopyField
          id={`share-link-${receiptId}`}
          label={m.share_link_label()}
          value={link.url}
          copyLabel={m.share_copy()}
          copiedText={m.share_copied()}
        />
        <p className="opacity-70">{m.share_link_once()}</p>
        <p className="opacity-70">{m.share_link_expires({ date: formatDate(link.expiresAt) })}</p>
      </div>
    );
  }
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      <button
        type="button"
        className="btn btn-sm btn-outline"
        onClick={() => void share(view.kind === 'exists')}
        disabled={view.kind === 'busy'}
        aria-describedby={view.kind === 'exists' ? `share-exists-${receiptId}` : undefined}
      >
        {view.kind === 'busy'
          ? m.share_creating()
          : view.kind === 'exists'
            ? m.share_replace()
            : m.share_button()}
      </button>
      {view.kind === 'exists' && (
        <p id={`share-exists-${receiptId}`} role="status" className="text-sm">
          {view.message}
        </p>
      )}
      {view.kind === 'failed' && (
        <p role="alert" className="text-sm text-error">
          {view.message}
        </p>
      )}
    </div>
  );
}
