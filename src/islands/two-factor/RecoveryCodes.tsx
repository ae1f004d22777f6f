/** The recovery codes, shown once right after two-factor sign-in is turned on, to copy or download. */
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';

interface RecoveryCodesProps {
  codes: string[];
  /** The button that leaves this view: the codes are never shown again. */
  doneLabel: string;
  onDone: () => void;
}

export function RecoveryCodes({ codes, doneLabel, onDone }: RecoveryCodesProps) {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a denied permission): the codes stay on screen to download or write down.
    }
  }

  return (
    <div className="flex flex-col gap-4" role="region" aria-labelledby="recovery-codes-title">
      <div role="status" className="alert alert-success alert-soft text-sm">
        {m.twofactor_enabled()}
      </div>
      <h3 id="recovery-codes-title" className="font-semibold">
        {m.twofactor_recovery_title()}
      </h3>
      <p className="text-sm">{m.twofactor_recovery_hint()}</p>
      <ul
        className="grid grid-cols-2 gap-2 rounded-box bg-base-200 p-4 font-mono text-sm"
        aria-labelledby="recovery-codes-title"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-outline btn-sm" onClick={copy}>
          {copied ? m.twofactor_copied() : m.twofactor_copy()}
        </button>
        <a
          className="btn btn-outline btn-sm"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="recovery-codes.txt"
        >
          {m.twofactor_download()}
        </a>
        <button type="button" className="btn btn-primary btn-sm" onClick={onDone}>
          {doneLabel}
        </button>
      </div>
    </div>
  );
}
