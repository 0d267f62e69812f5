import { Alert, AlertTitle, Box } from '@mui/material';
import type { ReactNode } from 'react';
import { Title } from 'react-admin';
import { UI } from '../messages';

/**
 * 權限不足 and why, in place of a page the user may not open (spec section 8: said at once, the
 * menu entry hidden elsewhere). `title` names the page in the top bar.
 */
export function Forbidden({ message, testId, title, children }: { message: string; testId?: string; title?: string; children?: ReactNode }) {
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      {title && <Title title={title} />}
      <Alert severity="warning" data-testid={testId}>
        <AlertTitle>{UI.forbiddenTitle}</AlertTitle>
        {message}
        {children}
      </Alert>
    </Box>
  );
}
