import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { Box, Button, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { createContext, useContext, useMemo, useState } from 'react';
import { Datagrid, FunctionField, List, SearchInput, TextField, TopToolbar, useListContext } from 'react-admin';
import { storeChangeDenial, formatTaipei, gates } from '../../../core/browser';
import type { Store } from '../../../core/browser';
import { useMe } from '../common/useMe';
import { STORES_UI as T, UI } from '../messages';
import { DeleteStoreDialog } from './DeleteStoreDialog';
import { StoreFormDialog } from './StoreFormDialog';
import { StoreLinkDialog } from './StoreLinkDialog';
import { FloodNotice } from './FloodNotice';
import { Gated } from '../common/Forbidden';
import { useCardsLayout } from '../common/useCardsLayout';

interface StoreActions {
  /** null to add one */
  edit: (store: Store | null) => void;
  remove: (store: Store) => void;
  link: (store: Store) => void;
}
const StoreActionsContext = createContext<StoreActions>({
  edit: () => undefined,
  remove: () => undefined,
  link: () => undefined,
});

const createdAt = (s: Store) => (s.created_at ? formatTaipei(Date.parse(s.created_at)) : '');

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder={T.search} />];

/** Without manage_stores one is told 權限不足 before anything is asked. */
export function StoreList() {
  return (
    <Gated allow={gates.manageStores} message={UI.forbiddenStores} title={T.title} testId="storelist-forbidden">
      <StoreListView />
    </Gated>
  );
}

function StoreListView() {
  const [form, setForm] = useState<{ open: boolean; store: Store | null }>({ open: false, store: null });
  const [deleting, setDeleting] = useState<Store | null>(null);
  const [linking, setLinking] = useState<Store | null>(null);
  const actions = useMemo<StoreActions>(
    () => ({ edit: (store) => setForm({ open: true, store }), remove: setDeleting, link: setLinking }),
    [],
  );
  return (
    <StoreActionsContext.Provider value={actions}>
      <FloodNotice advice />
      <List
        title={T.title}
        filters={filters}
        actions={<ListActions />}
        sort={{ field: 'id', order: 'ASC' }}
        perPage={25}
        empty={<Empty />}
        data-testid="store-list"
      >
        <StoreRows />
      </List>
      <StoreFormDialog open={form.open} store={form.store} onClose={() => setForm((f) => ({ ...f, open: false }))} />
      <DeleteStoreDialog store={deleting} onClose={() => setDeleting(null)} />
      <StoreLinkDialog store={linking} onClose={() => setLinking(null)} />
    </StoreActionsContext.Provider>
  );
}

function ListActions() {
  const { edit } = useContext(StoreActionsContext);
  return (
    <TopToolbar>
      <Button
        variant="contained"
        size="small"
        startIcon={<AddIcon />}
        onClick={() => edit(null)}
        data-testid="store-add"
      >
        {T.add}
      </Button>
    </TopToolbar>
  );
}

function Empty() {
  const { edit } = useContext(StoreActionsContext);
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2, width: '100%' }}>
      <StorefrontIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
      <Typography variant="h6" sx={{ mt: 1 }}>
        {T.empty}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {T.emptyHint}
      </Typography>
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => edit(null)}>
        {T.add}
      </Button>
    </Box>
  );
}

function RowButtons({ store, compact }: { store: Store; compact?: boolean }) {
  const { edit, remove, link } = useContext(StoreActionsContext);
  const { me } = useMe();
  // a store outside one's scope is shown, never offered for a change the server refuses
  if (!me || storeChangeDenial(me, store.id)) return null;
  if (compact) {
    return (
      <Box sx={{ display: 'flex', flexShrink: 0 }}>
        <Tooltip title={T.link}>
          <IconButton aria-label={`${T.link} ${store.name}`} onClick={() => link(store)} color="primary">
            <QrCodeIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={T.edit}>
          <IconButton aria-label={`${T.edit} ${store.name}`} onClick={() => edit(store)} color="primary">
            <EditIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={T.delete}>
          <IconButton aria-label={`${T.delete} ${store.name}`} onClick={() => remove(store)} color="error">
            <DeleteIcon />
          </IconButton>
        </Tooltip>
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
      <Button
        size="small"
        startIcon={<QrCodeIcon />}
        onClick={() => link(store)}
        aria-label={`${T.link} ${store.name}`}
      >
        {T.link}
      </Button>
      <Button size="small" startIcon={<EditIcon />} onClick={() => edit(store)} aria-label={`${T.edit} ${store.name}`}>
        {T.edit}
      </Button>
      <Button
        size="small"
        color="error"
        startIcon={<DeleteIcon />}
        onClick={() => remove(store)}
        aria-label={`${T.delete} ${store.name}`}
      >
        {T.delete}
      </Button>
    </Box>
  );
}

function StoreRows() {
  // beside the menu a tablet's table would scroll the page sideways and wrap names a character a line
  const narrow = useCardsLayout();
  if (narrow) return <StoreCards />;
  return (
    <Datagrid
      rowClick={false}
      bulkActionButtons={false}
      data-testid="store-table"
      rowSx={() => ({ '& td': { py: 0.75 } })}
    >
      <TextField source="id" label={T.id} />
      <TextField source="name" label={T.name} />
      <TextField source="code" label={T.code} sx={{ fontFamily: 'monospace' }} />
      <FunctionField<Store> source="created_at" label={T.createdAt} render={createdAt} />
      <FunctionField<Store> label={T.actions} textAlign="right" render={(s) => <RowButtons store={s} />} />
    </Datagrid>
  );
}

function StoreCards() {
  const { data, isPending } = useListContext<Store>();
  if (isPending || !data) return null;
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid="store-table">
      {data.map((s) => (
        <Paper
          key={s.id}
          variant="outlined"
          sx={{ display: 'flex', alignItems: 'center', gap: 1, pl: 1.5, pr: 0.5, py: 1 }}
          data-testid={`store-row-${s.code}`}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600 }} noWrap>
              {s.name}{' '}
              <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                {s.code}
              </Typography>
            </Typography>
            <Typography variant="caption" color="text.secondary">
              #{s.id} · {T.createdAt} {createdAt(s)}
            </Typography>
          </Box>
          <RowButtons store={s} compact />
        </Paper>
      ))}
    </Stack>
  );
}
