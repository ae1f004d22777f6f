/**
 * 'Import Consignees' of the User Management screen: the import, its result line (shown 5 s) and
 * the last import date.
 */
import { useEffect, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { apiBody, errorText } from '~/shared/api-client';
import { importResultMessage } from '~/shared/consignees';
import { FEEDBACK_LONG_MS } from '~/shared/constants';

/** An object, so that the same text twice in a row restarts its timer. */
export interface ImportOutcome {
  text: string;
  failed: boolean;
}

export function useConsigneeImport(initialLastImportDate: string | null) {
  const [lastImportDate, setLastImportDate] = useState(initialLastImportDate);
  const [importing, setImporting] = useState(false);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);

  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), FEEDBACK_LONG_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  const runImport = async () => {
    setImporting(true);
    try {
      const { data } = await apiBody('POST', '/consignees/import');
      setOutcome({ text: importResultMessage(data), failed: false });
      const { data: last } = await apiBody('GET', '/consignees/last-import-date');
      setLastImportDate(last.lastImportDate);
    } catch (error) {
      setOutcome({ text: m.users_import_failed({ reason: errorText(error) }), failed: true });
    }
    setImporting(false);
  };

  return { lastImportDate, importing, outcome, runImport };
}
