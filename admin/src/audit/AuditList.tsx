/**
 * 稽核紀錄 (system_admin): who did what and when, from where, newest first. A row opens to show
 * the record before and after the change, field by field, with changed fields marked.
 */
import HistoryIcon from '@mui/icons-material/History';
import { Box, Chip, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Datagrid, FunctionField, List, SelectInput, TextField, TextInput, useRecordContext, type RaRecord } from 'react-admin';
import { AUDIT_ACTION_LABELS, auditActionLabel, auditEntityLabel } from '../../../core/labels';
import { formatTaipei } from '../../../core/time';
import type { AuditEntry } from '../../../core/types';
import { AUDIT_UI as T } from '../messages';

type AuditRecord = AuditEntry & RaRecord;

const ACTION_CHOICES = Object.entries(AUDIT_ACTION_LABELS).map(([id, name]) => ({ id, name }));
const ACTION_COLORS: Record<string, 'success' | 'info' | 'error' | 'warning' | 'default' | 'primary'> = {
  create: 'success',
  update: 'info',
  delete: 'error',
  import: 'primary',
  login_failed: 'warning',
};

const filters = [
  <SelectInput key="action" source="action" label={T.action} choices={ACTION_CHOICES} emptyText={T.allActions} alwaysOn />,
  <TextInput key="user" source="actor_username" label={T.userFilter} alwaysOn />,
];

export function AuditList() {
  return (
    <List title={T.title} filters={filters} sort={{ field: 'at', order: 'DESC' }} perPage={25} empty={<Empty />} exporter={false} sx={{ '& .RaList-content': { overflowX: 'auto' } }} data-testid="audit-list">
      <Datagrid bulkActionButtons={false} empty={<Empty />} rowClick="expand" expand={<Changes />} expandSingle={false} data-testid="audit-grid">
        <FunctionField source="at" label={T.at} render={(r: AuditRecord) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatTaipei(Date.parse(r.at), { seconds: true })}</Box>} />
        <TextField source="actor_username" label={T.user} />
        <FunctionField
          source="action"
          label={T.action}
          render={(r: AuditRecord) => <Chip size="small" label={auditActionLabel(r.action)} color={ACTION_COLORS[r.action] ?? 'default'} variant="outlined" />}
        />
        <FunctionField source="entity" label={T.entity} render={(r: AuditRecord) => auditEntityLabel(r.entity)} />
        <TextField source="entity_id" label={T.entityId} emptyText="" sortable={false} />
        <TextField source="ip" label={T.ip} emptyText="" />
        <FunctionField label={T.changes} sortable={false} render={(r: AuditRecord) => <Summary record={r} />} />
      </Datagrid>
    </List>
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The fields that changed, in one line, so the table is readable without opening a row. */
function Summary({ record }: { record: AuditRecord }) {
  const { before, after } = record;
  let text: string;
  if (isObject(before) && isObject(after)) {
    const changed = Object.keys({ ...before, ...after }).filter((k) => k !== 'updated_at' && show(before[k]) !== show(after[k]));
    text = changed.join('、');
  } else text = show(after ?? before ?? '');
  return (
    <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
      {text}
    </Typography>
  );
}

/** The expanded row: a field-by-field table of before and after, changed fields highlighted. */
function Changes() {
  const record = useRecordContext<AuditRecord>();
  if (!record) return null;
  const { before, after } = record;
  if (!isObject(before) && !isObject(after)) {
    return (
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ p: 1 }}>
        <Raw label={T.before} value={before} />
        <Raw label={T.after} value={after} />
      </Stack>
    );
  }
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const keys = Object.keys({ ...b, ...a });
  return (
    <Paper variant="outlined" sx={{ m: 1, overflowX: 'auto' }} data-testid="audit-changes">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell />
            <TableCell>{T.before}</TableCell>
            <TableCell>{T.after}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {keys.map((k) => {
            const changed = isObject(before) && isObject(after) && show(b[k]) !== show(a[k]);
            return (
              <TableRow key={k} sx={changed ? { bgcolor: 'warning.light', '& td': { fontWeight: 600 } } : undefined}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{k}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{isObject(before) ? show(b[k]) : T.none}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{isObject(after) ? show(a[k]) : T.none}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Paper>
  );
}

function Raw({ label, value }: { label: string; value: unknown }) {
  return (
    <Box sx={{ flex: 1 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 13 }}>
        {value === null || value === undefined ? T.none : JSON.stringify(value, null, 2)}
      </Box>
    </Box>
  );
}
