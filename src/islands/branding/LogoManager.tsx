/** Spec "Logo Management": the current logo with its file name, size and upload time; delete; upload by drop or browse. */
import { useState } from 'react';
import { api } from '~/shared/api-client';
import { LOGO_TEXTS, LOGO_UPLOAD, type LogoInfo } from '~/shared/branding';
import { formatFileSize } from '~/shared/format';
import { LocalDate } from '../common/LocalDate';
import { Modal, ModalActions } from '../common/Modal';
import { FeedbackBanner } from './FeedbackBanner';
import { UploadArea, UploadIcon } from './UploadArea';
import { useBrandingChange } from './feedback';
import { showLogo } from './page-branding';

export interface LogoManagerProps {
  initialInfo: LogoInfo;
  /** Set when the server could not read the logo for this page. */
  loadFailure?: string;
}

export default function LogoManager({ initialInfo, loadFailure }: LogoManagerProps) {
  const [info, setInfo] = useState(initialInfo);
  const [confirming, setConfirming] = useState(false);
  const { busy, feedback, change, upload: uploadFile } = useBrandingChange<LogoInfo, 'deleting'>((next) => {
    setInfo(next);
    showLogo(next.logoPath);
  });
  const shownFeedback = feedback ?? (loadFailure ? { tone: 'error' as const, text: loadFailure } : null);

  function upload(file: File) {
    return uploadFile(file, LOGO_UPLOAD, '/logo/upload', LOGO_TEXTS.uploaded, LOGO_TEXTS.uploadFailed);
  }

  function remove() {
    setConfirming(false);
    return change(() => api('DELETE', '/logo/current'), 'deleting', LOGO_TEXTS.deleted, LOGO_TEXTS.deleteFailed);
  }

  return (
    <>
      <FeedbackBanner feedback={shownFeedback} />
      <div className="grid gap-6 lg:grid-cols-2">
        <section className="surface rounded-box border border-base-content/10 p-6" aria-labelledby="current-logo-heading">
          <h2 id="current-logo-heading" className="mb-4 text-lg font-semibold">
            Current Logo
          </h2>
          {info.hasLogo && info.logoPath ? (
            <div className="flex flex-wrap items-center gap-4">
              <div className="grid size-28 shrink-0 place-items-center rounded-box border border-base-content/10 bg-base-100 p-2">
                <img src={info.logoPath} alt="Current logo" className="size-full object-contain" />
              </div>
              <dl className="grid min-w-0 grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="opacity-70">File name</dt>
                <dd className="truncate" title={info.originalName ?? undefined}>
                  {info.originalName}
                </dd>
                <dt className="opacity-70">Size</dt>
                <dd>{formatFileSize(info.size)}</dd>
                <dt className="opacity-70">Uploaded</dt>
                <dd>{info.uploadedAt && <LocalDate value={info.uploadedAt} withTime />}</dd>
              </dl>
            </div>
          ) : (
            <div className="flex items-center gap-4">
              <img src="/logo-default.svg" alt="" className="h-14 w-14" width="56" height="56" />
              <p className="opacity-70">No logo uploaded. The default icon is shown.</p>
            </div>
          )}
          {info.hasLogo && (
            <button type="button" className="btn btn-error btn-outline mt-4" onClick={() => setConfirming(true)} disabled={busy !== null}>
              {busy === 'deleting' && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {busy === 'deleting' ? 'Deleting...' : 'Delete Logo'}
            </button>
          )}
        </section>

        <section className="surface rounded-box border border-base-content/10 p-6" aria-labelledby="upload-logo-heading">
          <h2 id="upload-logo-heading" className="mb-4 text-lg font-semibold">
            Upload New Logo
          </h2>
          <UploadArea
            label="Drop a logo here or click to browse"
            hint="JPEG, PNG, GIF or WebP, at most 1MB."
            busy={busy === 'uploading'}
            disabled={busy !== null}
            onFile={upload}
            icon={<UploadIcon />}
          />
        </section>
      </div>

      {confirming && (
        <Modal title="Delete Logo" onClose={() => setConfirming(false)}>
          <p>{LOGO_TEXTS.confirmDelete}</p>
          <ModalActions confirm="Delete Logo" tone="error" busy={false} onCancel={() => setConfirming(false)} onConfirm={remove} />
        </Modal>
      )}
    </>
  );
}
