import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { Title, useTranslate } from 'react-admin';

/** react-admin's own page adds a '.' after the sentence (…無效的連結。.). */
export function NotFound() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 3, textAlign: 'center' }} data-testid="not-found">
      <Title title={translate('ra.page.not_found')} />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('ra.page.not_found')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{translate('ra.message.not_found')}</Typography>
      <Button variant="contained" component={Link} to="/">
        {translate('ra.action.back')}
      </Button>
    </Box>
  );
}
