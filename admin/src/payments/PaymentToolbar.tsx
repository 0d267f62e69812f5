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

/** Fetched when 匯入 Excel is pressed, not with the list. */
const ImportDialog = lazy(() => import('./ImportDialog').then((m) => ({ default: m.ImportDialog })));

/** No data to export is an alert; any other failure a notice. */
function useDownload() {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async (job: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await job();
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) window.alert(UI.noDataToExport);
      else notify((err as Error)?.message || P.downloadFailed, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** With nothing chosen it names every store the user may see: without manage_payments, no "export all". */
function exportFilter(me: Me, filterValues: Record<string, unknown>, permanent: Record<string, unknown>) {
  const filter: Record<string, unknown> = { ...filterValues, ...permanent };
  if (Object.keys(filter).length === 0 && !isAdmin(me)) {
    const scope = storeScope(me);
    if (!scope.all) filter.store_id = scope.ids;
  }
  return filter;
}

export function PaymentToolbar({ me, permanent }: { me: Me; permanent: Record<string, unknown> }) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const { filterValues, total } = useListContext();
  const [importing, setImporting] = useState(false);
  const { busy, run } = useDownload();
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ py: 1 }} data-testid="payment-toolbar">
      {gates.managePayments(me) && <ManageButtons busy={busy} run={run} onImport={() => setImporting(true)} />}
      {gates.exportFiltered(me) && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          disabled={busy}
          onClick={() => run(() => dataProvider.exportPayments(exportFilter(me, filterValues, permanent)))}
        >
          {P.exportFiltered(total ?? 0)}
        </Button>
      )}
      {!narrow && <MultiStoreSwitch me={me} />}
      {!narrow && <MoreFiltersSwitch />}
      <CountLine permanent={permanent} />
      {importing && <Importing me={me} onClose={() => setImporting(false)} />}
    </Stack>
  );
}

function ManageButtons({
  busy,
  run,
  onImport,
}: {
  busy: boolean;
  run: (job: () => Promise<unknown>) => void;
  onImport: () => void;
}) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  return (
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
      <Button size="small" variant="contained" startIcon={<UploadFileIcon />} onClick={onImport}>
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
  );
}

function Importing({ me, onClose }: { me: Me; onClose: () => void }) {
  const refresh = useRefresh();
  return (
    <Suspense fallback={null}>
      <ImportDialog
        me={me}
        onClose={(imported) => {
          onClose();
          if (imported) refresh();
        }}
      />
    </Suspense>
  );
}

/** The list's one count, shown of total; the pages below say only where they are (第 1-25 筆). */
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
