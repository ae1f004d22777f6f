/**
 * The Background Management screen: the current background (thumbnail at the stored card opacity, name,
 * size, upload time, opacity), delete with confirmation, upload, and the card opacity slider.
 */
import { useId, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api } from '~/shared/api-client';
import { BACKGROUND_UPLOAD, type BackgroundInfo } from '~/shared/branding';
import { CARD_OPACITY_MAX, CARD_OPACITY_MIN, CARD_OPACITY_STEP } from '~/shared/constants';
import { formatCount, formatFileSize, formatSizeLimit } from '~/shared/format';
import type { Locale } from '~/shared/locale';
import { LocalDate } from '../common/LocalDate';
import { adoptLocale } from '../common/locale';
import { Modal, ModalActions } from '../common/Modal';
import { FeedbackBanner } from './FeedbackBanner';
import { UploadArea } from './UploadArea';
import { UploadIcon } from '../common/icons';
import { useBrandingChange } from './feedback';
import { showBackground, showCardOpacity } from './page-branding';
import { ReadyFieldset } from '../common/ReadyFieldset';

export interface BackgroundManagerProps {
  locale: Locale;
  initialInfo: BackgroundInfo;
  /** Set when the server could not read the background for this page. */
  loadFailure?: string;
}

const percent = (opacity: number) => `${formatCount(Math.round(opacity * 100))}%`;

export default function BackgroundManager({
  locale,
  initialInfo,
  loadFailure,
}: BackgroundManagerProps) {
  adoptLocale(locale);
  const [info, setInfo] = useState(initialInfo);
  const [opacity, setOpacity] = useState(initialInfo.opacity);
  const [confirming, setConfirming] = useState(false);
  const {
    busy,
    feedback,
    change,
    upload: uploadFile,
  } = useBrandingChange<BackgroundInfo, 'deleting' | 'updating'>((next) => {
    setInfo(next);
    showBackground(next.backgroundPath);
    showCardOpacity(next.opacity);
  });
  const shownFeedback =
    feedback ?? (loadFailure ? { tone: 'error' as const, text: loadFailure } : null);
  const sliderId = useId();
  const pending = opacity !== info.opacity;

  function upload(file: File) {
    return uploadFile(
      file,
      BACKGROUND_UPLOAD,
      (form) => api('POST', '/background/upload', form),
      m.branding_background_uploaded(),
      m.branding_background_upload_failed(),
    );
  }

  function remove() {
    setConfirming(false);
    return change(
      () => api('DELETE', '/background/current'),
      'deleting',
      m.branding_background_deleted(),
      m.branding_background_delete_failed(),
    );
  }

  function updateOpacity() {
    return change(
      () => api('PUT', '/background/opacity', { opacity }),
      'updating',
      m.branding_opacity_updated(),
      m.branding_opacity_failed(),
    );
  }

  return (
    <ReadyFieldset>
      <FeedbackBanner feedback={shownFeedback} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section
          className="surface rounded-box border border-base-content/10 p-6"
          aria-labelledby="current-background-heading"
        >
          <h2 id="current-background-heading" className="mb-4 text-lg font-semibold">
            {m.branding_current_background()}
          </h2>
          {info.hasBackground && info.backgroundPath ? (
            <>
              {/* At the stored card opacity: the page's --card-opacity, which follows every update. */}
              <img
                src={info.backgroundPath}
                alt={m.branding_current_background_alt()}
                className={[
                  'mb-4 aspect-video w-full rounded-box border border-base-content/10',
                  'object-cover opacity-[var(--card-opacity,0.9)]',
                ].join(' ')}
              />
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="opacity-70">{m.branding_file_name()}</dt>
                <dd className="truncate" title={info.originalName ?? undefined}>
                  {info.originalName}
                </dd>
                <dt className="opacity-70">{m.branding_size()}</dt>
                <dd>{formatFileSize(info.size)}</dd>
                <dt className="opacity-70">{m.branding_uploaded_at()}</dt>
                <dd>{info.uploadedAt && <LocalDate value={info.uploadedAt} withTime />}</dd>
                <dt className="opacity-70">{m.branding_card_opacity_label()}</dt>
                <dd>{percent(info.opacity)}</dd>
              </dl>
              {info.originalPath && (
                <a href={info.originalPath} download className="link mt-2 block text-sm">
                  {m.branding_download_original()}
                </a>
              )}
              <button
                type="button"
                className="btn btn-error btn-outline mt-4"
                onClick={() => setConfirming(true)}
                disabled={busy !== null}
              >
                {busy === 'deleting' && (
                  <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                )}
                {busy === 'deleting' ? m.branding_deleting() : m.branding_delete_background()}
              </button>
            </>
          ) : (
            <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
              <p className="font-medium">{m.branding_no_background()}</p>
              <p className="text-sm opacity-70">{m.branding_no_background_hint()}</p>
            </div>
          )}
        </section>

        <div className="flex flex-col gap-6">
          <section
            className="surface rounded-box border border-base-content/10 p-6"
            aria-labelledby="upload-background-heading"
          >
            <h2 id="upload-background-heading" className="mb-4 text-lg font-semibold">
              {m.branding_upload_background_title()}
            </h2>
            <UploadArea
              label={m.branding_upload_background_label()}
              hint={m.branding_upload_background_hint({
                max: formatSizeLimit(BACKGROUND_UPLOAD.maxBytes),
              })}
              busy={busy === 'uploading'}
              disabled={busy !== null}
              onFile={upload}
              icon={<UploadIcon />}
            />
          </section>

          <section
            className="surface rounded-box border border-base-content/10 p-6"
            aria-labelledby="card-opacity-heading"
          >
            <h2 id="card-opacity-heading" className="mb-4 text-lg font-semibold">
              {m.branding_card_opacity_title()}
            </h2>
            <div className="mb-2 flex items-center justify-between gap-2">
              <label htmlFor={sliderId} className="text-sm font-medium">
                {m.branding_card_opacity_label()}
              </label>
              {/* The slider's aria-valuetext says the same to assistive technology. */}
              <span className="font-mono text-sm" aria-hidden="true">
                {percent(opacity)}
              </span>
            </div>
            <input
              id={sliderId}
              type="range"
              className="w-full accent-primary"
              min={CARD_OPACITY_MIN}
              max={CARD_OPACITY_MAX}
              step={CARD_OPACITY_STEP}
              value={opacity}
              aria-valuetext={percent(opacity)}
              onChange={(event) => setOpacity(Number(event.target.value))}
              disabled={busy === 'updating'}
            />
            <div className="mt-1 flex justify-between text-xs opacity-70">
              <span>
                {m.branding_opacity_more_transparent({ percent: percent(CARD_OPACITY_MIN) })}
              </span>
              <span>{m.branding_opacity_fully_opaque({ percent: percent(CARD_OPACITY_MAX) })}</span>
            </div>
            <div className="mt-4 flex flex-wrap items-center gap-3">
              <button
                type="button"
                className="btn btn-primary"
                onClick={updateOpacity}
                disabled={!pending || busy !== null}
              >
                {busy === 'updating' && (
                  <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                )}
                {busy === 'updating' ? m.branding_updating() : m.branding_update_opacity()}
              </button>
              {pending && <p className="text-sm opacity-70">{m.branding_opacity_pending()}</p>}
            </div>
          </section>
        </div>
      </div>

      {confirming && (
        <Modal title={m.branding_delete_background()} onClose={() => setConfirming(false)}>
          <p>{m.branding_background_confirm_delete()}</p>
          <ModalActions
            confirm={m.branding_delete_background()}
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
