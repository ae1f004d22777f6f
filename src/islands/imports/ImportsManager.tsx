/**
 * The import screen: a file picked or dropped is first read as a dry run (the counts and the first 20
 * rows); the columns are placed with one select per field; then Import. The history below lists who
 * imported which file, its counts, and its row errors as a CSV download.
 */
import { useId, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { api, ApiError, errorText } from '~/shared/api-client';
import { formatCount, formatNumber, formatSizeLimit } from '~/shared/format';
import {
  IMPORT_FIELDS,
  IMPORT_FILE_FIELD,
  IMPORT_MAX_BYTES,
  importTooLarge,
  type ImportField,
} from '~/shared/import-fields';
import type { ImportMapping, ImportResult, ImportRun } from '~/shared/imports';
import type { Locale } from '~/shared/locale';
import { UploadArea } from '../branding/UploadArea';
import { FeedbackBanner } from '../branding/FeedbackBanner';
import type { Feedback } from '../branding/feedback';
import { LocalDate } from '../common/LocalDate';
import { UploadIcon } from '../common/icons';
import { adoptLocale } from '../common/locale';
import { ReadyFieldset } from '../common/ReadyFieldset';

export interface ImportsManagerProps {
  locale: Locale;
  initialHistory: ImportRun[];
  folder: string;
}

const ACCEPT = [
  '.csv',
  '.txt',
  '.xlsx',
  '.xml',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/xml',
  'text/xml',
].join(',');

const FIELD_LABELS: Record<ImportField, () => string> = {
  number: m.imports_field_number,
  receivedDate: m.imports_field_received_date,
  shipperName: m.imports_field_shipper_name,
  consigneeName: m.imports_field_consignee_name,
  pieces: m.imports_field_pieces,
  totalWeightValue: m.imports_field_weight,
  totalVolumeValue: m.imports_field_volume,
  destination: m.imports_field_destination,
  status: m.imports_field_status,
  trackingNumber: m.imports_field_tracking_number,
  description: m.imports_field_description,
};

const countsText = (
  counts: Pick<ImportResult, 'created' | 'updated' | 'unchanged' | 'removed'> & {
    errors: unknown[];
  },
) =>
  m.imports_counts({
    created: formatCount(counts.created),
    updated: formatCount(counts.updated),
    unchanged: formatCount(counts.unchanged),
    removed: formatCount(counts.removed),
    refused: formatCount(counts.errors.length),
  });

/** The 400 of a file whose required columns were not found: the fields missing and the file's headers. */
function missingColumns(error: unknown): { missing: ImportField[]; headers: string[] } | null {
  if (!(error instanceof ApiError) || !Array.isArray(error.body?.details)) return null;
  const details = error.body.details;
  const missing = details.flatMap((issue) =>
    IMPORT_FIELDS.filter((field) => issue.field === `mapping.${field}`),
  );
  const headers = details.flatMap((issue) =>
    issue.field.startsWith('headers.') ? [issue.message] : [],
  );
  return missing.length > 0 ? { missing, headers } : null;
}

export default function ImportsManager({ locale, initialHistory, folder }: ImportsManagerProps) {
  adoptLocale(locale);
  const fullId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [full, setFull] = useState(false);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [headers, setHeaders] = useState<string[]>([]);
  const [missing, setMissing] = useState<ImportField[]>([]);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<'reading' | 'importing' | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [history, setHistory] = useState(initialHistory);

  async function send(
    chosen: File,
    options: { dryRun: boolean; mapping: ImportMapping; full: boolean },
  ): Promise<ImportResult> {
    const form = new FormData();
    form.append(IMPORT_FILE_FIELD, chosen, chosen.name);
    if (options.dryRun) form.append('dryRun', 'true');
    if (options.full) form.append('full', 'true');
    if (Object.keys(options.mapping).length > 0)
      form.append('mapping', JSON.stringify(options.mapping));
    return api('POST', '/admin/imports', form);
  }

  async function tryFile(chosen: File, chosenMapping: ImportMapping) {
    if (chosen.size > IMPORT_MAX_BYTES) {
      setFeedback({ tone: 'error', text: importTooLarge() });
      return;
    }
    setFile(chosen);
    setBusy('reading');
    setFeedback(null);
    try {
      const result = await send(chosen, { dryRun: true, mapping: chosenMapping, full });
      setPreview(result);
      setHeaders(result.headers);
      setMapping(result.mapping);
      setMissing([]);
    } catch (error) {
      const columns = missingColumns(error);
      setPreview(null);
      if (columns) {
        setHeaders(columns.headers);
        setMissing(columns.missing);
        setMapping(chosenMapping);
      } else {
        setHeaders([]);
        setMissing([]);
        setFeedback({ tone: 'error', text: errorText(error) });
      }
    } finally {
      setBusy(null);
    }
  }

  async function runImport() {
    if (!file) return;
    setBusy('importing');
    setFeedback(null);
    try {
      const result = await send(file, { dryRun: false, mapping, full });
      setFeedback({ tone: 'success', text: m.imports_done({ counts: countsText(result) }) });
      setPreview(null);
      setFile(null);
      setHeaders([]);
      setHistory(await api('GET', '/admin/imports'));
    } catch (error) {
      setFeedback({ tone: 'error', text: errorText(error) });
    } finally {
      setBusy(null);
    }
  }

  const choose = (field: ImportField, header: string) => {
    const next = { ...mapping };
    if (header) next[field] = header;
    else delete next[field];
    setMapping(next);
  };

  return (
    <ReadyFieldset>
      <FeedbackBanner feedback={feedback} />
      <section className="surface mb-6 flex flex-col gap-4 rounded-box border border-base-content/10 p-4 sm:p-6">
        <UploadArea
          label={m.imports_drop_label()}
          hint={m.imports_drop_hint({ max: formatSizeLimit(IMPORT_MAX_BYTES) })}
          busy={busy !== null}
          accept={ACCEPT}
          onFile={(chosen) => void tryFile(chosen, {})}
          icon={<UploadIcon />}
        />
        <div className="flex items-start gap-3">
          <input
            id={fullId}
            type="checkbox"
            className="checkbox mt-0.5"
            checked={full}
            onChange={(event) => setFull(event.target.checked)}
          />
          <label htmlFor={fullId} className="flex flex-col">
            <span className="font-medium">{m.imports_full_label()}</span>
            <span className="text-sm opacity-70">{m.imports_full_hint()}</span>
          </label>
        </div>
        <p className="text-sm opacity-70">{m.imports_folder_note({ folder })}</p>
      </section>

      {file && headers.length > 0 && (
        <section
          className="surface mb-6 rounded-box border border-base-content/10 p-4 sm:p-6"
          aria-labelledby="imports-mapping-heading"
        >
          <h2 id="imports-mapping-heading" className="mb-1 text-lg font-semibold">
            {m.imports_mapping_heading()}
          </h2>
          <p className="mb-3 text-sm opacity-70">{m.imports_mapping_intro()}</p>
          {missing.length > 0 && (
            <p role="alert" className="alert alert-warning alert-soft mb-3">
              {m.imports_mapping_missing({
                fields: missing.map((field) => FIELD_LABELS[field]()).join(', '),
              })}
            </p>
          )}
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {IMPORT_FIELDS.map((field) => (
              <label key={field} className="flex min-w-0 flex-col gap-1">
                <span className="text-sm font-medium">{FIELD_LABELS[field]()}</span>
                <select
                  className="select select-sm w-full"
                  value={mapping[field] ?? ''}
                  onChange={(event) => choose(field, event.target.value)}
                >
                  <option value="">{m.imports_mapping_none()}</option>
                  {headers.map((header, index) => (
                    <option key={`${index}-${header}`} value={header}>
                      {header}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <button
            type="button"
            className="btn btn-outline btn-sm mt-4"
            disabled={busy !== null}
            onClick={() => void tryFile(file, mapping)}
          >
            {m.imports_preview_again()}
          </button>
        </section>
      )}

      {file && preview && (
        <section
          className="surface mb-6 rounded-box border border-base-content/10 p-4 sm:p-6"
          aria-labelledby="imports-preview-heading"
        >
          <h2 id="imports-preview-heading" className="mb-1 text-lg font-semibold break-words">
            {m.imports_preview_heading({ file: file.name })}
          </h2>
          <p className="text-sm opacity-70">{m.imports_preview_intro()}</p>
          <p role="status" className="my-3 font-medium">
            {countsText(preview)}
          </p>
          <div className="overflow-x-auto">
            <table className="table-zebra table table-sm">
              <thead>
                <tr>
                  <th scope="col">{m.imports_col_row()}</th>
                  {IMPORT_FIELDS.map((field) => (
                    <th key={field} scope="col">
                      {FIELD_LABELS[field]()}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.preview.map((row) => (
                  <tr key={row.row}>
                    <td>{row.row}</td>
                    <td className="font-mono">{row.number}</td>
                    <td>{row.receivedDate ? <LocalDate value={row.receivedDate} /> : ''}</td>
                    <td>{row.shipperName}</td>
                    <td>{row.consigneeName}</td>
                    <td>{formatCount(row.pieces)}</td>
                    <td>{formatNumber(row.totalWeightValue)}</td>
                    <td>{formatNumber(row.totalVolumeValue)}</td>
                    <td>{row.destination}</td>
                    <td>{row.status}</td>
                    <td className="font-mono">{row.trackingNumber ?? ''}</td>
                    <td>{row.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {preview.errors.length > 0 && (
            <details className="mt-3">
              <summary className="cursor-pointer font-medium">{m.imports_errors_heading()}</summary>
              <ul className="mt-2 list-disc pl-6 text-sm">
                {preview.errors.slice(0, 50).map((error) => (
                  <li key={`${error.row}-${error.column}`}>
                    {m.imports_error_row({
                      row: String(error.row),
                      column: error.column,
                      message: error.message,
                    })}
                  </li>
                ))}
              </ul>
            </details>
          )}
          <div className="mt-4 flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy !== null}
              onClick={() => void runImport()}
            >
              {busy === 'importing' ? m.imports_importing() : m.imports_import()}
            </button>
          </div>
        </section>
      )}

      <section
        className="surface rounded-box border border-base-content/10 p-4 sm:p-6"
        aria-labelledby="imports-history-heading"
      >
        <h2 id="imports-history-heading" className="mb-3 text-lg font-semibold">
          {m.imports_history_heading()}
        </h2>
        {history.length === 0 ? (
          <p className="opacity-80">{m.imports_history_empty()}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-base-content/10">
            {history.map((run) => (
              <li
                key={run.id}
                className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
              >
                <div className="min-w-0">
                  <p className="font-medium break-all">{run.fileName}</p>
                  <p className="text-sm opacity-70">
                    <LocalDate value={run.at} withTime /> · {run.username ?? m.imports_by_folder()}
                    {run.full ? ` · ${m.imports_full_list()}` : ''}
                  </p>
                  <p className="text-sm">{countsText(run)}</p>
                </div>
                {run.errors.length > 0 ? (
                  <a
                    className="btn btn-outline btn-sm shrink-0"
                    href={`/api/admin/imports/${run.id}/errors.csv`}
                    download
                  >
                    {m.imports_errors_download({ count: formatCount(run.errors.length) })}
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </ReadyFieldset>
  );
}
