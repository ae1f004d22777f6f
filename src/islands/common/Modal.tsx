import { useEffect, useId, useRef, type ReactNode } from 'react';
import { m } from '~/paraglide/messages.js';
import { CloseIcon } from './icons';

interface ModalProps {
  title: string;
  /** Escape, the backdrop and Cancel buttons all ask to close; the owner decides (not while saving). */
  onClose: () => void;
  /** A wider box, for content such as a map. */
  wide?: boolean;
  children: ReactNode;
}

/** A daisyUI modal on a native <dialog>, opened as modal while mounted (focus trap, Escape, top layer). */
export function Modal({ title, onClose, wide = false, children }: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    dialogRef.current?.showModal();
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // The dialog stays open until the owner unmounts it, so React state and the DOM agree.
        event.preventDefault();
        onClose();
      }}
    >
      {/* Clear of the screen's edges on a desktop; on a phone the footer's actions stay at the bottom
          (ModalActions). */}
      <div
        className={`modal-box border border-base-300 sm:max-h-[calc(100dvh-4rem)] ${wide ? 'max-w-3xl' : 'max-w-lg'}`}
      >
        <div className="mb-4 flex items-start justify-between gap-3">
          <h2 id={titleId} className="text-lg font-bold">
            {title}
          </h2>
          {/* At the top, where a long window's end may be a screen or two down. */}
          <button
            type="button"
            className="btn btn-circle btn-ghost btn-sm -mt-1 -mr-2 shrink-0"
            aria-label={m.common_close()}
            onClick={onClose}
          >
            <CloseIcon className="size-5" />
          </button>
        </div>
        {children}
      </div>
      <div className="modal-backdrop">
        <button type="button" tabIndex={-1} aria-hidden="true" onClick={onClose} />
      </div>
    </dialog>
  );
}

export function FailureAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="alert alert-error alert-soft mb-4">
      <span>{message}</span>
    </div>
  );
}

interface ModalActionsProps {
  /** Text of the confirming button. */
  confirm: string;
  busy: boolean;
  onCancel: () => void;
  /** Without it the confirming button submits the surrounding form. */
  onConfirm?: () => void;
  tone?: 'primary' | 'error';
}

/** Cancel and the confirming button, both disabled while the action runs. */
export function ModalActions({
  confirm,
  busy,
  onCancel,
  onConfirm,
  tone = 'primary',
}: ModalActionsProps) {
  return (
    <div className="modal-action max-sm:sticky max-sm:bottom-0 max-sm:bg-base-100 max-sm:pt-3">
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
        {m.common_cancel()}
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className={tone === 'error' ? 'btn btn-error' : 'btn btn-primary'}
        onClick={onConfirm}
        disabled={busy}
      >
        {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {confirm}
      </button>
    </div>
  );
}
