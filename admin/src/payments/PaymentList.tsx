/**
 * The payments tab (spec section 2): filters, toolbar, the table with inline status and note
 * editing, single and batch delete. Filtering, sorting and paging happen on the server.
 */
import { Box, Typography } from '@mui/material';
import { Datagrid, FunctionField, List, Loading, Pagination, TextField, useGetList, useListContext } from 'react-admin';
import { canSwitchStores, gates } from '../../../core/permissions';
import { formatNTD } from '../../../core/money';
import { defaultDateRange, formatTaipei } from '../../../core/time';
import { storeLabel } from '../../../core/labels';
import type { Me, Payment } from '../../../core/types';
import { Forbidden } from '../common/Forbidden';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';
import { BulkActions } from './BulkActions';
import { DeletePaymentButton } from './DeletePaymentButton';
import { PAYMENTS_UI as P, UI } from '../messages';
import { NoteCell } from './NoteCell';
import { PaymentFilters, useStoreFilterMode } from './PaymentFilters';
import { PaymentToolbar } from './PaymentToolbar';
import { StatusCell } from './StatusCell';
import { UnlinkButton } from './UnlinkButton';

export function PaymentList() {
  const { me, isPending } = useMe();
  if (isPending) return <Loading />;
  if (!me || !gates.viewPayments(me)) return <ForbiddenNotice me={me} />;
  return <PaymentListView me={me} />;
}

/** Without view_payments: 權限不足 / 您沒有查看匯款記錄的權限, with the permissions for debugging. */
function ForbiddenNotice({ me }: { me: Me | undefined }) {
  return (
    <Forbidden message={UI.forbiddenPayments} testId="payments-forbidden">
      <Box component="pre" sx={{ mt: 1, mb: 0, fontSize: 12, whiteSpace: 'pre-wrap' }}>
        {P.forbiddenDebug}
        {JSON.stringify({ role: me?.role, permissions: me?.permissions ?? [] })}
      </Box>
    </Forbidden>
  );
}

function PaymentListView({ me }: { me: Me }) {
  const [selectedStore] = useSelectedStore();
  const [multi] = useStoreFilterMode();
  const range = defaultDateRange();
  // The top bar's store switcher narrows the list, unless the multi-store checkboxes are in use.
  const permanent = canSwitchStores(me) && selectedStore !== null && !multi ? { store_id: selectedStore } : {};
  return (
    <List
      resource="payments"
      title={P.title}
      filter={permanent}
      filterDefaultValues={{ paid_at_gte: range.from, paid_at_lte: range.to }}
      sort={{ field: 'paid_at', order: 'DESC' }}
      perPage={25}
      actions={false}
      empty={false}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
      sx={{ '& .RaList-content': { overflowX: 'auto' } }}
    >
      <PaymentToolbar me={me} permanent={permanent} />
      <PaymentFilters me={me} />
      <PaymentGrid me={me} permanent={permanent} />
    </List>
  );
}

function PaymentGrid({ me, permanent }: { me: Me; permanent: Record<string, unknown> }) {
  const { stores, byId } = useStores();
  const [multi] = useStoreFilterMode();
  const canEdit = gates.editPayments(me);
  const canDelete = gates.deletePayments(me);
  return (
    <Datagrid
      bulkActionButtons={canDelete || canEdit ? <BulkActions canDelete={canDelete} canEdit={canEdit} /> : false}
      rowClick={false}
      empty={<EmptyState permanent={permanent} />}
      sx={{ '& td, & th': { px: 1 }, minWidth: 900 }}
    >
      <TextField source="last_five" label={P.lastFive} sx={{ fontFamily: 'monospace', fontSize: '1rem' }} />
      <FunctionField source="paid_at" label={P.paidAt} render={(r: Payment) => formatTaipei(Date.parse(r.paid_at))} />
      <FunctionField source="amount" label={P.amount} textAlign="right" render={(r: Payment) => formatNTD(r.amount)} />
      {stores.length > 0 && (
        <FunctionField
          source="store_id"
          label={P.store}
          render={(r: Payment) => {
            const s = byId(r.store_id);
            return multi ? storeLabel(s) : (s?.name ?? storeLabel(s));
          }}
        />
      )}
      <FunctionField
        source="status"
        label={P.status}
        render={(r: Payment) => (
          <>
            <StatusCell record={r} editable={canEdit} />
            {canEdit && <UnlinkButton record={r} />}
          </>
        )}
      />
      <FunctionField source="note" label={P.note} sortable={false} render={(r: Payment) => <NoteCell record={r} editable={canEdit} />} />
      <FunctionField source="created_at" label={P.createdAt} render={(r: Payment) => formatTaipei(Date.parse(r.created_at))} />
      {canDelete && <FunctionField label={P.actions} sortable={false} render={(r: Payment) => <DeletePaymentButton record={r} />} />}
    </Datagrid>
  );
}

/** No records at all, or none matching the filters (spec section 2 "Empty states"). */
function EmptyState({ permanent }: { permanent: Record<string, unknown> }) {
  const { total: all, isPending } = useGetList('payments', { pagination: { page: 1, perPage: 1 }, filter: permanent });
  const { isPending: listPending } = useListContext();
  if (isPending || listPending) return <Typography sx={{ p: 3 }}>{P.loading}</Typography>;
  return (
    <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }} data-testid="payments-empty">
      {all ? P.emptyFiltered : P.emptyAll}
    </Typography>
  );
}
