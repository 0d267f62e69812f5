import DownloadIcon from '@mui/icons-material/Download';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { HttpError, useDataProvider, useGetList, useListContext, useNotify, useRefresh } from 'react-admin';
import { gates, isAdmin, storeScope } from '../../../core/browser';
import type { Me } from '../../../core/browser';
import type { RemitDataProvider } from '../providers/dataProvider';
import { MoreFiltersSwitch, MultiStoreSwitch } from './PaymentFilters';
import { PAYMENTS_UI as P, UI } from '../messages';
import { countParams } from './listParams';

/** The import dialog (and its steps) is fetched when 匯入 Excel is pressed, not with the list. */
const ImportDialog = lazy(() => import('./ImportDialog').then((m) => ({ default: m.ImportDialog })));

/** Toolbar (manage_payments: sample, import, export all) and the filtered export (view_payments). */
export function PaymentToolbar({ me, permanent }: { me: Me; permanent: Record<string, unknown> }) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const { filterValues, total } = useListContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const [importing, setImporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));

  const run = async (job: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await job();
    } catch (err) {
      // Export with no data: the spec's alert.
      if (err instanceof HttpError && err.status === 404) window.alert(UI.noDataToExport);
      else notify((err as Error)?.message || P.downloadFailed, { type: 'error' });
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
          <Button
            size="small"
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={busy}
            onClick={() => run(() => dataProvider.downloadSample())}
          >
            {P.downloadSample}
          </Button>
          <Button size="small" variant="contained" startIcon={<UploadFileIcon />} onClick={() => setImporting(true)}>
            {P.importExcel}
          </Button>
          <Button
            size="small"
            variant="outlined"
            startIcon={<FileDownloadIcon />}
            disabled={busy}
            onClick={() => run(() => dataProvider.exportPayments({}))}
          >
            {P.exportAll}
          </Button>
        </>
      )}
      {gates.exportFiltered(me) && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          disabled={busy}
          onClick={() => run(() => dataProvider.exportPayments(filtered()))}
        >
          {P.exportFiltered(total ?? 0)}
        </Button>
      )}
      {!narrow && <MultiStoreSwitch me={me} />}
      {!narrow && <MoreFiltersSwitch />}
      <CountLine permanent={permanent} />
      {importing && (
        <Suspense fallback={null}>
          <ImportDialog
            me={me}
            onClose={(imported) => {
              setImporting(false);
              if (imported) refresh();
            }}
          />
        </Suspense>
      )}
    </Stack>
  );
}

/**
 * The one count of the list (spec: shown versus total): how many payments the filters leave, of
 * all the user may see here. The pages below say only where they are (第 1-25 筆).
 */
function CountLine({ permanent }: { permanent: Record<string, unknown> }) {
  const { total } = useListContext();
  const { total: all } = useGetList('payments', countParams(permanent));
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      sx={{ ml: 'auto', alignSelf: 'center', whiteSpace: 'nowrap' }}
      data-testid="count-line"
    >
      {P.countLine(total ?? 0, all ?? 0)}
    </Typography>
  );
}
