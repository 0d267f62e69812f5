import StorefrontIcon from '@mui/icons-material/Storefront';
import { Box, Chip, Typography } from '@mui/material';
import { isBranchUser } from '../../../core/browser';
import { useMe } from '../common/useMe';
import { UI } from '../messages';

export function UserBadge() {
  const { me } = useMe();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid="current-user">
      <Typography variant="body2" component="span">
        {me?.username ?? UI.unknownUser}
      </Typography>
      {me && isBranchUser(me) && (
        <Chip size="small" icon={<StorefrontIcon />} label="分店用戶" color="warning" variant="filled" />
      )}
    </Box>
  );
}
