import DeleteIcon from '@mui/icons-material/DeleteOutline';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Button, Chip, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useDeleteMany, useListContext, useNotify, useRefresh, useUnselectAll } from 'react-admin';
import { STATUS_COLORS, STATUSES } from '../../../core/browser';
import type { RemitDataProvider } from '../providers/dataProvider';
import { ConfirmDialog } from './ConfirmDialog';
import { PAYMENTS_UI as P } from '../messages';
import { serverMessage } from '../serverError';
import { beginUndoable, UNDO_MS } from './undoPending';

export function BulkActions({ canDelete, canEdit }: { canDelete: boolean; canEdit: boolean }) {
  const { selectedIds } = useListContext();
  const dataProvider = useDataProvider<RemitDataProvider>();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll('payments');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [menu, setMenu] = useState<HTMLElement | null>(null);

  const done = () => {
    setBusy(false);
    setConfirming(false);
    unselectAll();
    refresh();
  };
  const [removeMany] = useDeleteMany();
  const notify = useNotify();
  // the rows go at once; the delete is sent only after 復原 has gone
  const deleteSelected = () => {
    const ids = [...selectedIds];
    setConfirming(false);
    unselectAll();
    const end = beginUndoable();
    removeMany(
      'payments',
      { ids },
      {
        mutationMode: 'undoable',
        onSuccess: () => notify(P.deletedMany(ids.length), { type: 'info', undoable: true, autoHideDuration: UNDO_MS }),
        onSettled: end,
        onError: (err) => {
          console.error('批次刪除失敗', err);
          notify(serverMessage(err) ?? P.saveFailedUnknown, { type: 'error' });
        },
      },
    );
  };
  const setStatus = async (status: string) => {
    setMenu(null);
    try {
      await dataProvider.updateMany('payments', { ids: selectedIds, data: { status } });
      done();
    } catch (err) {
      console.error('批次更改狀態失敗', err);
      refresh();
    }
  };

  return (
    <>
      {canEdit && (
        <Button size="small" startIcon={<SwapHorizIcon />} onClick={(e) => setMenu(e.currentTarget)}>
          {P.batchStatus}
        </Button>
      )}
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {STATUSES.map((s) => (
          <MenuItem key={s} onClick={() => setStatus(s)}>
            <Chip size="small" color={STATUS_COLORS[s]} label={s} />
          </MenuItem>
        ))}
      </Menu>
      {canDelete && (
        <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => setConfirming(true)}>
          {P.batchDelete}
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title={P.batchDeleteTitle}
        body={P.batchDeleteBody(selectedIds.length)}
        busy={busy}
        onConfirm={deleteSelected}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
