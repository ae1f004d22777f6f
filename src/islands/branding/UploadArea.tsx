import { useId, useState, type DragEvent, type ReactNode } from 'react';
import { m } from '~/paraglide/messages.js';
import { ACCEPTED_IMAGE_TYPES } from '~/shared/branding';

interface UploadAreaProps {
  /** What the area says, and the file input's name for assistive technology. */
  label: string;
  hint: string;
  /** An upload is under way. */
  busy: boolean;
  /** Another change is under way. */
  disabled?: boolean;
  onFile: (file: File) => void;
  icon: ReactNode;
  /** The file input's `accept`: images unless told otherwise. */
  accept?: string;
}

/**
 * A drop zone around a real file input: clicking the area or pressing Enter on the focused input
 * opens the browser's picker; a file dropped on it is taken the same way.
 */
export function UploadArea({
  label,
  hint,
  busy,
  disabled = false,
  onFile,
  icon,
  accept = ACCEPTED_IMAGE_TYPES,
}: UploadAreaProps) {
  const blocked = busy || disabled;
  const inputId = useId();
  const hintId = useId();
  const [dragging, setDragging] = useState(false);

  function drop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !blocked) onFile(file);
  }

  return (
    <label
      htmlFor={inputId}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      aria-busy={busy}
      className={[
        'flex flex-col items-center gap-2 rounded-box border-2 border-dashed px-6 py-10 text-center',
        'focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-primary',
        dragging ? 'border-primary' : 'border-base-content/25',
        blocked ? 'opacity-70' : 'cursor-pointer hover:border-primary',
      ].join(' ')}
    >
      <span className="opacity-70">
        {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : icon}
      </span>
      <span className="font-medium">{busy ? m.branding_uploading() : label}</span>
      <span id={hintId} className="text-sm opacity-70">
        {hint}
      </span>
      <input
        id={inputId}
        type="file"
        accept={accept}
        className="sr-only"
        aria-label={label}
        aria-describedby={hintId}
        disabled={blocked}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared, so that picking the same file again is a change too.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </label>
  );
}
