// 稽核紀錄: who did what, when and from where; a row opens on the record before and after the change.
import HistoryIcon from '@mui/icons-material/History';
import {
  Box,
  Button,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  Datagrid,
  FunctionField,
  List,
  RecordContextProvider,
  SelectInput,
  TextField,
  TextInput,
  useListContext,
  useRecordContext,
  type RaRecord,
} from 'react-admin';
import {
  auditActorText,
  auditFieldRows,
  auditSummaryText,
  AUDIT_ACTION_LABELS,
  auditActionLabel,
  auditEntityLabel,
  formatTaipei,
  gates,
} from '../../../core/browser';
import type { AuditStoreLookup, AuditEntry } from '../../../core/browser';
import { useStores } from '../common/useStores';
import { AUDIT_UI as T, UI } from '../messages';
import { Gated } from '../common/Forbidden';
import { useCardsLayout } from '../common/useCardsLayout';

type AuditRecord = AuditEntry & RaRecord;

const ACTION_CHOICES = Object.entries(AUDIT_ACTION_LABELS).map(([id, name]) => ({ id, name }));
const ACTION_COLORS: Record<string, 'success' | 'info' | 'error' | 'warning' | 'default' | 'primary'> = {
  create: 'success',
  update: 'info',
  delete: 'error',
  import: 'primary',
  export: 'primary',
  login_failed: 'warning',
  restore: 'warning',
};

const filters = [
  <SelectInput
    key="action"
    source="action"
    label={T.action}
    choices={ACTION_CHOICES}
    emptyText={T.allActions}
    alwaysOn
  />,
  <TextInput key="user" source="actor_username" label={T.userFilter} alwaysOn />,
];

/** The others are told 權限不足 before anything is asked. */
export function AuditList() {
  return (
    <Gated allow={gates.systemAdmin} message={UI.forbiddenAudit} title={T.title} testId="auditlist-forbidden">
      <AuditListView />
    </Gated>
  );
}

function AuditListView() {
  // beside the menu a tablet's table would push 摘要 off the screen and wrap 編號 a character a line
  const phone = useCardsLayout();
  return (
    <List
      title={T.title}
      filters={filters}
      sort={{ field: 'at', order: 'DESC' }}
      perPage={25}
      empty={<Empty />}
      exporter={false}
      actions={phone ? false : undefined}
      sx={{ minWidth: 0, '& .RaList-content': { overflowX: 'auto' } }}
      data-testid="audit-list"
    >
      {phone ? (
        <AuditCards />
      ) : (
        <Datagrid
          bulkActionButtons={false}
          empty={<Empty />}
          rowClick="expand"
          expand={<Changes />}
          expandSingle={false}
          data-testid="audit-grid"
        >
          <FunctionField
            source="at"
            label={T.at}
            render={(r: AuditRecord) => (
              <Box sx={{ whiteSpace: 'nowrap' }}>{formatTaipei(Date.parse(r.at), { seconds: true })}</Box>
            )}
          />
          <FunctionField source="actor_username" label={T.user} render={(r: AuditRecord) => auditActorText(r)} />
          <FunctionField source="action" label={T.action} render={(r: AuditRecord) => <ActionChip record={r} />} />
          <FunctionField
            source="entity"
            label={T.entity}
            render={(r: AuditRecord) => <Box sx={{ whiteSpace: 'nowrap' }}>{auditEntityLabel(r.entity)}</Box>}
          />
          <TextField source="entity_id" label={T.entityId} emptyText="" sortable={false} />
          <TextField source="ip" label={T.ip} emptyText="" />
          <FunctionField label={T.changes} sortable={false} render={(r: AuditRecord) => <Summary record={r} />} />
        </Datagrid>
      )}
    </List>
  );
}

function ActionChip({ record }: { record: AuditRecord }) {
  // the colour in the outline only: a yellow or light-blue word on white is too faint (axe color-contrast)
  return (
    <Chip
      size="small"
      label={auditActionLabel(record.action)}
      color={ACTION_COLORS[record.action] ?? 'default'}
      variant="outlined"
      sx={{ color: 'text.primary' }}
    />
  );
}

function AuditCards() {
  const { data, isPending } = useListContext<AuditRecord>();
  if (isPending || !data) return null;
  if (data.length === 0) return <Empty />;
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid="audit-cards">
      {data.map((r) => (
        <RecordContextProvider key={r.id} value={r}>
          <AuditCard record={r} />
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

function AuditCard({ record: r }: { record: AuditRecord }) {
  const [open, setOpen] = useState(false);
  const text = auditSummaryText(r, useStoreLookup());
  return (
    <Paper variant="outlined" sx={{ p: 1.25, minWidth: 0 }} data-testid={`audit-card-${r.id}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <ActionChip record={r} />
        <Typography sx={{ fontWeight: 600 }}>{auditEntityLabel(r.entity)}</Typography>
        <Typography variant="body2" sx={{ ml: 'auto' }} aria-label={T.user}>
          {auditActorText(r)}
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary">
        {formatTaipei(Date.parse(r.at), { seconds: true })}
        {r.ip ? ` · ${r.ip}` : ''}
      </Typography>
      {text && (
        <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          {text}
        </Typography>
      )}
      <Button size="small" sx={{ mt: 0.5, px: 0.5, minWidth: 0 }} aria-expanded={open} onClick={() => setOpen(!open)}>
        {T.show}
      </Button>
      {open && <Changes stacked />}
    </Paper>
  );
}

function Empty() {
  return (
    <Box sx={{ textAlign: 'center', py: 6, width: '100%' }}>
      <HistoryIcon color="disabled" sx={{ fontSize: 48 }} />
      <Typography color="text.secondary">{T.empty}</Typography>
    </Box>
  );
}

/** From the stores the page already loads. */
function useStoreLookup(): AuditStoreLookup {
  const { byId } = useStores();
  return byId;
}

/** One line of words, so the table reads without opening a row. */
function Summary({ record }: { record: AuditRecord }) {
  const text = auditSummaryText(record, useStoreLookup());
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      title={text}
      sx={{ maxWidth: { xs: 140, sm: 320 }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {text}
    </Typography>
  );
}

function Changes({ stacked = false }: { stacked?: boolean }) {
  const record = useRecordContext<AuditRecord>();
  const stores = useStoreLookup();
  if (!record) return null;
  const rows = auditFieldRows(record, stores);
  if (!rows) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 1 }} data-testid="audit-changes">
        {T.noDetail}
      </Typography>
    );
  }
  if (stacked) {
    return (
      <Box component="dl" sx={{ m: 0, mt: 0.5 }} data-testid="audit-changes">
        {rows.map((r) => (
          <Box
            key={r.field}
            sx={{ py: 0.5, borderTop: 1, borderColor: 'divider', ...(r.changed && { bgcolor: 'warning.light' }) }}
          >
            <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
              {r.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {T.before}：{r.before}
              <br />
              {T.after}：{r.after}
            </Typography>
          </Box>
        ))}
      </Box>
    );
  }
  return (
    <Paper variant="outlined" sx={{ m: 1, overflowX: 'auto' }} data-testid="audit-changes">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{T.field}</TableCell>
            <TableCell>{T.before}</TableCell>
            <TableCell>{T.after}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow
              key={r.field}
              sx={r.changed ? { bgcolor: 'warning.light', '& td': { fontWeight: 600 } } : undefined}
            >
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.label}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{r.before}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{r.after}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
