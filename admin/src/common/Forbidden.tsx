import { Alert, AlertTitle, Box } from '@mui/material';
import type { ReactNode } from 'react';
import { Loading, Title, useTranslate } from 'react-admin';
import type { Me } from '../../../core/browser';
import { useMe } from './useMe';
import { UI } from '../messages';

/** `title` names the page in the top bar. */
export function Forbidden({
  message,
  testId,
  title,
  children,
}: {
  message: string;
  testId?: string;
  title?: string;
  children?: ReactNode;
}) {
  return (
    <Notice
      severity="warning"
      heading={UI.forbiddenTitle}
      message={message}
      testId={testId}
      title={title}
      kind="forbidden"
    >
      {children}
    </Notice>
  );
}

/** react-admin's own refusal, in the same box as every other 權限不足. */
export function AccessDenied() {
  const translate = useTranslate();
  return <Forbidden message={translate('ra.message.access_denied')} testId="access-denied" />;
}

export function NoStoreNotice({
  title,
  heading,
  message,
  testId,
}: {
  title?: string;
  heading: string;
  message: string;
  testId?: string;
}) {
  return <Notice severity="info" heading={heading} message={message} testId={testId} title={title} kind="no-store" />;
}

function Notice({
  severity,
  heading,
  message,
  testId,
  title,
  kind,
  children,
}: {
  severity: 'warning' | 'info';
  heading: string;
  message: string;
  testId?: string;
  title?: string;
  kind: string;
  children?: ReactNode;
}) {
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      {title && <Title title={title} />}
      <Alert severity={severity} data-testid={testId} data-notice={kind}>
        <AlertTitle>{heading}</AlertTitle>
        {message}
        {children}
      </Alert>
    </Box>
  );
}

/** Refuses before the page asks the server for anything it would refuse. */
export function Gated({
  allow,
  message,
  title,
  testId,
  children,
}: {
  allow: (me: Me) => boolean;
  message: string;
  title?: string;
  testId?: string;
  children: ReactNode;
}) {
  const { me, isPending } = useMe();
  if (isPending) return <Loading />;
  if (!me || !allow(me)) return <Forbidden title={title} message={message} testId={testId} />;
  return <>{children}</>;
}
