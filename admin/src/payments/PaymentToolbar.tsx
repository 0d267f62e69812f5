import DownloadIcon from '@mui/icons-material/Download';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { HttpError, useDataProvider, useListContext, useNotify, useRefresh } from 'react-admin';
import { gates, isAdmin, storeScope } from '../../../core/permissions';
import type { Me } from '../../../core/types';
import type { RemitDataProvider } from '../providers/dataProvider';
import { ImportDialog } from './ImportDialog';
import { PAYMENTS_UI as P, UI } from '../messages';

/** Toolbar (manage_payments: sample, import, export all) and the filtered export (view_payments). */
export function PaymentToolbar({ me, permanent }: { me: Me; permanent: Record<string, unknown> }) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const { filterValues, total } = useListContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const [importing, setImporting] = useState(false);
  const [busy, setBusy] = useState(false);

  const run = async (job: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await job();
    } catch (err) {
      // Export with no data: the spec's alert.
      if (err instanceof HttpError && err.status === 404) window.alert(UI.noDataToExport);
      else notify((err as Error)?.message || '下載失敗', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const filtered = () => {
    const filter: Record<string, unknown> = { ...filterValues, ...permanent };
    // With nothing chosen, "filtered" means every store the user may see, named explicitly so a
    // user without manage_payments is not asking for "export all".
    if (Object.keys(filter).length === 0 && !isAdmin(me)) {
      const scope = storeScope(me);
      if (!scope.all) filter.store_id = scope.ids;
    }
    return filter;
  };

  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ py: 1 }} data-testid="payment-toolbar">
      {gates.managePayments(me) && (
        <>
          <Button size="small" variant="outlined" startIcon={<DownloadIcon />} disabled={busy} onClick={() => run(() => dataProvider.downloadSample())}>
            {P.downloadSample}
          </Button>
          <Button size="small" variant="contained" startIcon={<UploadFileIcon />} onClick={() => setImporting(true)}>
            {P.importExcel}
          </Button>
          <Button size="small" variant="outlined" startIcon={<FileDownloadIcon />} disabled={busy} onClick={() => run(() => dataProvider.exportPayments({}))}>
            {P.exportAll}
          </Button>
        </>
      )}
      {gates.exportFiltered(me) && (
        <Button size="small" variant="outlined" startIcon={<FileDownloadIcon />} disabled={busy} onClick={() => run(() => dataProvider.exportPayments(filtered()))}>
          {P.exportFiltered(total ?? 0)}
        </Button>
      )}
      {importing && (
        <ImportDialog
          me={me}
          onClose={(imported) => {
            setImporting(false);
            if (imported) refresh();
          }}
        />
      )}
    </Stack>
  );
}
