/**
 * The Logo Management screen: the current logo with its file name, size and upload time; delete;
 * upload by drop or browse.
 */
import { useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import { LOGO_UPLOAD, type LogoInfo } from '~/shared/branding';
import { formatFileSize, formatSizeLimit } from '~/shared/format';
import type { Locale } from '~/shared/locale';
import { LocalDate } from '../common/LocalDate';
import { adoptLocale } from '../common/locale';
import { Modal, ModalActions } from '../common/Modal';
import { FeedbackBanner } from './FeedbackBanner';
import { UploadArea } from './UploadArea';
import { UploadIcon } from '../common/icons';
import { useBrandingChange } from './feedback';
import { showLogo } from './page-branding';
import { ReadyFieldset } from '../common/ReadyFieldset';

export interface LogoManagerProps {
  locale: Locale;
  initialInfo: LogoInfo;
  /** Set when the server could not read the logo for this page. */
  loadFailure?: string;
}

export default function LogoManager({ locale, initialInfo, loadFailure }: LogoManagerProps) {
  adoptLocale(locale);
  const [info, setInfo] = useState(initialInfo);
  const [confirming, setConfirming] = useState(false);
  const {
    busy,
    feedback,
    change,
    upload: uploadFile,
  } = useBrandingChange<LogoInfo, 'deleting'>((next) => {
    setInfo(next);
    showLogo(next.logoPath);
  });
  const shownFeedback =
    feedback ?? (loadFailure ? { tone: 'error' as const, text: loadFailure } : null);

  function upload(file: File) {
    return uploadFile(
      file,
      LOGO_UPLOAD,
      (form) => api('POST', '/logo/upload', form),
      m.branding_logo_uploaded(),
      m.branding_logo_upload_failed(),
    );
  }

  function remove() {
    setConfirming(false);
    return change(
      () => api('DELETE', '/logo/current'),
      'deleting',
      m.branding_logo_deleted(),
      m.branding_logo_delete_failed(),
    );
  }

  return (
    <ReadyFieldset>
      <FeedbackBanner feedback={shownFeedback} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section
          className="surface rounded-box border border-base-content/10 p-6"
          aria-labelledby="current-logo-heading"
        >
          <h2 id="current-logo-heading" className="mb-4 text-lg font-semibold">
            {m.branding_current_logo()}
          </h2>
          {info.hasLogo && info.logoPath ? (
            <div className="flex flex-wrap items-center gap-4">
              <div
                className={[
                  'grid size-28 shrink-0 place-items-center',
                  'rounded-box border border-base-content/10 bg-base-100 p-2',
                ].join(' ')}
              >
                <img
                  src={info.logoPath}
                  alt={m.branding_current_logo_alt()}
                  className="size-full object-contain"
                />
              </div>
              <dl className="grid min-w-0 grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="opacity-70">{m.branding_file_name()}</dt>
                <dd className="truncate" title={info.originalName ?? undefined}>
                  {info.originalName}
                </dd>
                <dt className="opacity-70">{m.branding_size()}</dt>
                <dd>{formatFileSize(info.size)}</dd>
                <dt className="opacity-70">{m.branding_uploaded_at()}</dt>
                <dd>{info.uploadedAt && <LocalDate value={info.uploadedAt} withTime />}</dd>
              </dl>
              {info.originalPath && (
                <a href={info.originalPath} download className="link text-sm">
                  {m.branding_download_original()}
                </a>
              )}
            </div>
          ) : (
            <div className="flex items-center gap-4">
              <img src="/logo-default.svg" alt="" className="h-14 w-14" width="56" height="56" />
              <p className="opacity-70">{m.branding_no_logo()}</p>
            </div>
          )}
          {info.hasLogo && (
            <button
              type="button"
              className="btn btn-error btn-outline mt-4"
              onClick={() => setConfirming(true)}
              disabled={busy !== null}
            >
              {busy === 'deleting' && (
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              )}
              {busy === 'deleting' ? m.branding_deleting() : m.branding_delete_logo()}
            </button>
          )}
        </section>

        <section
          className="surface rounded-box border border-base-content/10 p-6"
          aria-labelledby="upload-logo-heading"
        >
          <h2 id="upload-logo-heading" className="mb-4 text-lg font-semibold">
            {m.branding_upload_logo_title()}
          </h2>
          <UploadArea
            label={m.branding_upload_logo_label()}
            hint={m.branding_upload_logo_hint({ max: formatSizeLimit(LOGO_UPLOAD.maxBytes) })}
            busy={busy === 'uploading'}
            disabled={busy !== null}
            onFile={upload}
            icon={<UploadIcon />}
          />
        </section>
      </div>

      {confirming && (
        <Modal title={m.branding_delete_logo()} onClose={() => setConfirming(false)}>
          <p>{m.branding_logo_confirm_delete()}</p>
          <ModalActions
            confirm={m.branding_delete_logo()}
            tone="error"
            busy={false}
            onCancel={() => setConfirming(false)}
            onConfirm={remove}
          />
        </Modal>
      )}
    </ReadyFieldset>
  );
}
