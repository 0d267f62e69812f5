import { MenuItem, TextField } from '@mui/material';
import { storeLabel, canSwitchStores, storesInScope } from '../../../core/browser';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';

const ALL_STORES = '全部分店';

/** None for a scope of one store or none: 全部分店 would say more than they reach. */
export function StoreSwitcher(props: { fullWidth?: boolean; onDark?: boolean }) {
  const { me } = useMe();
  const { stores: all } = useStores();
  const [selected, setSelected] = useSelectedStore();
  const stores = me ? storesInScope(me, all) : [];
  if (!me || !canSwitchStores(me) || stores.length <= 1) return null;
  return (
    <TextField
      select
      size="small"
      label="分店"
      value={selected ?? ''}
      onChange={(e) => setSelected(e.target.value === '' ? null : Number(e.target.value))}
      fullWidth={props.fullWidth}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{
        minWidth: 180,
        ...(props.onDark && {
          '& .MuiInputBase-root': { color: 'inherit', bgcolor: 'rgba(255,255,255,0.06)' },
          '& .MuiInputLabel-root, & .MuiInputLabel-root.Mui-focused': { color: '#fff' },
          '& .MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,0.5)' },
          '& .MuiSvgIcon-root': { color: 'inherit' },
        }),
      }}
      data-testid="store-switcher"
    >
      <MenuItem value="">{ALL_STORES}</MenuItem>
      {stores.map((s) => (
        <MenuItem key={s.id} value={s.id}>
          {storeLabel(s)}
        </MenuItem>
      ))}
    </TextField>
  );
}
