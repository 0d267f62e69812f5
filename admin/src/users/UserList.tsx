// The users tab: a table on wide screens, one card per member on a phone.
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Divider,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Title, useGetList } from 'react-admin';
import {
  activeLabel,
  can,
  effectivePermissions,
  isAdmin,
  permissionLabels,
  storeAccessLabel,
  formatTaipei,
  ROLE_LABELS,
  storeLabel,
  gates,
} from '../../../core/browser';
import type { Me, User } from '../../../core/browser';
import { useMe } from '../common/useMe';
import { useStores, type StoreRecord } from '../common/useStores';
import { UI, USERS_UI } from '../messages';
import { useOwnPasswordDialog } from '../account/useOwnPasswordDialog';
import { DeleteUserDialog } from './DeleteUserDialog';
import { serverMessage } from '../serverError';
import { UserActions, type UserActionHandlers } from './UserActions';
import { UserFormDialog } from './UserFormDialog';
import { Gated } from '../common/Forbidden';

const PER_PAGE_OPTIONS = [25, 50, 100];

interface Column {
  key: string;
  label: string;
  render: (user: User) => ReactNode;
  minWidth?: number;
}

function columns(me: Me, byId: (id: number) => StoreRecord | undefined, handlers: UserActionHandlers): Column[] {
  return [
    { key: 'username', label: USERS_UI.username, minWidth: 120, render: (u) => <UsernameCell user={u} me={me} /> },
    {
      key: 'role',
      label: USERS_UI.role,
      render: (u) => (
        <Chip
          size="small"
          label={ROLE_LABELS[u.role] ?? u.role}
          color={isAdmin(u) ? 'primary' : 'default'}
          variant={isAdmin(u) ? 'filled' : 'outlined'}
        />
      ),
    },
    {
      key: 'permissions',
      label: USERS_UI.permissions,
      minWidth: 140,
      render: (u) => <Typography variant="body2">{permissionLabels(effectivePermissions(u))}</Typography>,
    },
    { key: 'stores', label: USERS_UI.storeInfo, minWidth: 130, render: (u) => <StoresCell user={u} byId={byId} /> },
    {
      key: 'status',
      label: USERS_UI.status,
      render: (u) => <Chip size="small" label={activeLabel(u.is_active)} color={u.is_active ? 'success' : 'default'} />,
    },
    // room for 2026/11/24 01:51 on one line
    { key: 'created_at', label: USERS_UI.createdAt, minWidth: 130, render: (u) => <CreatedCell user={u} /> },
    {
      key: 'actions',
      label: USERS_UI.actions,
      minWidth: 170,
      render: (u) => <UserActions user={u} me={me} handlers={handlers} />,
    },
  ];
}

function UsernameCell({ user, me }: { user: User; me: Me }) {
  return (
    <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
      {user.username}
      {user.id === me.id && (
        <Typography component="span" variant="body2" color="text.secondary">
          {USERS_UI.self}
        </Typography>
      )}
    </Typography>
  );
}

function StoresCell({ user, byId }: { user: User; byId: (id: number) => StoreRecord | undefined }) {
  return (
    <>
      {/* a line breaks between stores, never inside one */}
      <Typography variant="body2">
        {storeAccessLabel(user, byId)
          .split('、')
          .map((part, i) => (
            <Box component="span" key={i} sx={{ whiteSpace: 'nowrap' }}>
              {i > 0 && '、'}
              {part}
            </Box>
          ))}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {USERS_UI.homeStore}：{user.store_id === null ? USERS_UI.headquarters : storeLabel(byId(user.store_id))}
      </Typography>
    </>
  );
}

function CreatedCell({ user }: { user: User }) {
  // date and time may go on two lines in a narrow column, never break inside either
  const [date, time] = formatTaipei(Date.parse(user.created_at)).split(' ');
  return (
    <Typography variant="body2">
      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {date}
      </Box>{' '}
      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {time}
      </Box>
    </Typography>
  );
}

function UserTable({ users, cols }: { users: User[]; cols: Column[] }) {
  return (
    // inline-size containment: the table scrolls inside the page instead of widening it
    <TableContainer sx={{ overflowX: 'auto', contain: 'inline-size' }}>
      <Table size="small" data-testid="users-table">
        <TableHead>
          <TableRow>
            {cols.map((c) => (
              <TableCell key={c.key} sx={{ minWidth: c.minWidth, fontWeight: 600, whiteSpace: 'nowrap', px: 1.5 }}>
                {c.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((u) => (
            <TableRow key={u.id} hover data-testid={`user-row-${u.username}`}>
              {cols.map((c) => (
                <TableCell key={c.key} sx={{ px: 1.5 }}>
                  {c.render(u)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function UserCards({ users, cols }: { users: User[]; cols: Column[] }) {
  const [first, ...rest] = cols;
  const actions = rest.find((c) => c.key === 'actions')!;
  const fields = rest.filter((c) => c.key !== 'actions');
  return (
    <Stack spacing={1.5} sx={{ p: 1.5 }} data-testid="users-cards">
      {users.map((u) => (
        <Card key={u.id} variant="outlined" data-testid={`user-row-${u.username}`}>
          <CardContent sx={{ pb: 1, '&:last-child': { pb: 1 } }}>
            <Box sx={{ mb: 1 }}>{first.render(u)}</Box>
            {fields.map((c) => (
              <Box
                key={c.key}
                sx={{ display: 'grid', gridTemplateColumns: '5.5em 1fr', gap: 1, alignItems: 'start', py: 0.5 }}
              >
                <Typography variant="body2" color="text.secondary">
                  {c.label}
                </Typography>
                <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{c.render(u)}</Box>
              </Box>
            ))}
            <Divider sx={{ my: 1 }} />
            {actions.render(u)}
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

/** The others are told 權限不足 before anything is asked. */
export function UserList() {
  return (
    <Gated allow={gates.manageUsers} message={UI.forbiddenUsers} title={USERS_UI.title} testId="userlist-forbidden">
      <UserListView />
    </Gated>
  );
}

function UserListView() {
  const { me } = useMe();
  const { byId, stores } = useStores();
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('md'));
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(PER_PAGE_OPTIONS[0]);
  const { data, total, isPending, error } = useGetList<User>('users', {
    pagination: { page, perPage },
    sort: { field: 'id', order: 'ASC' },
  });

  const [formFor, setFormFor] = useState<{ mode: 'create' } | { mode: 'edit'; user: User } | null>(null);
  const password = useOwnPasswordDialog(); // the list offers it on one's own row only
  const [deleting, setDeleting] = useState<User | null>(null);

  const handlers: UserActionHandlers = {
    onEdit: (user) => setFormFor({ mode: 'edit', user }),
    onChangePassword: () => password.openDialog(),
    onDelete: (user) => setDeleting(user),
  };

  return (
    <Box sx={{ mt: { xs: 1, sm: 2 }, mb: 2 }}>
      <Title title={USERS_UI.title} />
      <Paper variant="outlined">
        <UsersHeader onAdd={me && can(me, 'manage_users') ? () => setFormFor({ mode: 'create' }) : null} />
        <Divider />
        <UsersBody
          me={me}
          users={data ?? []}
          pending={isPending}
          error={error}
          narrow={narrow}
          byId={byId}
          handlers={handlers}
        />
        <UsersPager total={total ?? 0} page={page} perPage={perPage} setPage={setPage} setPerPage={setPerPage} />
      </Paper>
      {me && formFor && (
        <UserFormDialog
          key={formFor.mode === 'edit' ? `edit-${formFor.user.id}` : 'create'}
          me={me}
          stores={stores}
          user={formFor.mode === 'edit' ? formFor.user : null}
          onClose={() => setFormFor(null)}
        />
      )}
      {password.dialog}
      {deleting && <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />}
    </Box>
  );
}

function UsersBody(props: {
  me: Me | undefined;
  users: User[];
  pending: boolean;
  error: unknown;
  narrow: boolean;
  byId: (id: number) => StoreRecord | undefined;
  handlers: UserActionHandlers;
}) {
  const { me, users, pending, error, narrow, byId, handlers } = props;
  if (pending || !me) return <UsersLoading />;
  if (error) {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {serverMessage(error) ?? USERS_UI.loadFailed}
      </Alert>
    );
  }
  if (users.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }} data-testid="users-empty">
        {UI.noMembers}
      </Typography>
    );
  }
  const cols = columns(me, byId, handlers);
  return narrow ? <UserCards users={users} cols={cols} /> : <UserTable users={users} cols={cols} />;
}

function UsersLoading() {
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1.5, py: 6 }}
      data-testid="users-loading"
    >
      <CircularProgress size={24} />
      <Typography color="text.secondary">{USERS_UI.loading}</Typography>
    </Box>
  );
}

/** `onAdd` null: no 新增會員. */
function UsersHeader({ onAdd }: { onAdd: (() => void) | null }) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 1,
        flexWrap: 'wrap',
        px: 2,
        py: 1.5,
      }}
    >
      <Typography variant="h6" component="h1">
        {USERS_UI.title}
      </Typography>
      {onAdd && (
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={onAdd}>
          {USERS_UI.add}
        </Button>
      )}
    </Box>
  );
}

/** Shown only when there are more members than the smallest page holds. */
function UsersPager(props: {
  total: number;
  page: number;
  perPage: number;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
}) {
  const { total, page, perPage, setPage, setPerPage } = props;
  if (total <= PER_PAGE_OPTIONS[0]) return null;
  return (
    <TablePagination
      component="div"
      count={total}
      page={page - 1}
      onPageChange={(_e, p) => setPage(p + 1)}
      rowsPerPage={perPage}
      rowsPerPageOptions={PER_PAGE_OPTIONS}
      onRowsPerPageChange={(e) => {
        setPerPage(Number(e.target.value));
        setPage(1);
      }}
    />
  );
}
