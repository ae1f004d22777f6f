/**
 * A value shown once (a share link, an API token, a webhook's signing secret): read-only in a field that
 * selects itself when focused, a copy button, and a status that says it was copied. Rendered as a
 * fragment, so the surrounding box lays its parts out.
 */
import { useState } from 'react';

export interface CopyFieldProps {
  id: string;
  label: string;
  value: string;
  copyLabel: string;
  copiedText: string;
  /** Tokens and secrets read better in a fixed-width font. */
  monospace?: boolean;
}

export function CopyField({
  id,
  label,
  value,
  copyLabel,
  copiedText,
  monospace = false,
}: CopyFieldProps) {
  // The value that was copied: a new value shows as not copied yet.
  const [copiedValue, setCopiedValue] = useState<string | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopiedValue(value);
    } catch {
      // No clipboard (an insecure origin, a refusal): the value stays selectable in its field.
    }
  }

  return (
    <>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          className={`input input-sm min-w-0 flex-1${monospace ? ' font-mono' : ''}`}
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="btn btn-sm btn-primary" onClick={() => void copy()}>
          {copyLabel}
        </button>
      </div>
      <p role="status" className="text-success">
        {copiedValue === value ? copiedText : ''}
      </p>
    </>
  );
}
