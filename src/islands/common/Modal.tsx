import { useEffect, useId, useRef, type ReactNode } from 'react';
import { m } from '~/paraglide/messages.js';

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
      <div className={`modal-box border border-base-300 ${wide ? 'max-w-3xl' : 'max-w-lg'}`}>
        <h2 id={titleId} className="mb-4 text-lg font-bold">
          {title}
        </h2>
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

/** The one button of a modal that only shows something. */
export function CloseAction({ onClose }: { onClose: () => void }) {
  return (
    <div className="modal-action">
      <button type="button" className="btn" onClick={onClose}>
        {m.common_close()}
      </button>
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
export function ModalActions({ confirm, busy, onCancel, onConfirm, tone = 'primary' }: ModalActionsProps) {
  return (
    <div className="modal-action">
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
        {m.common_cancel()}
      </button>
      <button type={onConfirm ? 'button' : 'submit'} className={tone === 'error' ? 'btn btn-error' : 'btn btn-primary'} onClick={onConfirm} disabled={busy}>
        {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {confirm}
      </button>
    </div>
  );
}
