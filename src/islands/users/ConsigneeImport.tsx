/** 'Import Consignees' and 'Last consignee import: date' of spec "User Management", with the result line of section 8. */
import { useEffect, useState } from 'react';
import { apiBody, errorText } from '~/shared/api-client';
import { importResultMessage, type ImportResult, type LastImportInfo } from '~/shared/consignees';
import { FEEDBACK_LONG_MS } from '~/shared/constants';
import { LocalDate } from '../common/LocalDate';

/** An object, so that the same text twice in a row restarts its timer. */
interface Outcome {
  text: string;
  failed: boolean;
}

export function ConsigneeImport({ initialLastImportDate }: { initialLastImportDate: string | null }) {
  const [lastImportDate, setLastImportDate] = useState(initialLastImportDate);
  const [importing, setImporting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), FEEDBACK_LONG_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  const runImport = async () => {
    setImporting(true);
    try {
      const { data } = await apiBody<{ data: ImportResult }>('POST', '/consignees/import');
      setOutcome({ text: importResultMessage(data), failed: false });
      const { data: last } = await apiBody<{ data: LastImportInfo }>('GET', '/consignees/last-import-date');
      setLastImportDate(last.lastImportDate);
    } catch (error) {
      setOutcome({ text: `Import failed: ${errorText(error)}`, failed: true });
    }
    setImporting(false);
  };

  return (
    <div className="flex flex-col items-end gap-1">
      <button type="button" className="btn btn-outline" onClick={runImport} disabled={importing}>
        {importing && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        {importing ? 'Importing...' : 'Import Consignees'}
      </button>
      <p className="text-xs opacity-70">
        Last consignee import: {lastImportDate ? <LocalDate value={lastImportDate} /> : 'Never'}
      </p>
      {outcome && (
        <div role={outcome.failed ? 'alert' : 'status'} className={`alert alert-soft text-sm ${outcome.failed ? 'alert-error' : 'alert-success'}`}>
          {outcome.text}
        </div>
      )}
    </div>
  );
}
