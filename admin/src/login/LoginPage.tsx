// The sign-in screen `/admin/login`, for the back office and the form page alike.
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useLayoutEffect, useState, type FormEvent } from 'react';
import { useAuthProvider } from 'react-admin';
import { validateLogin } from '../../../core/browser';
import { appTitle } from '../config';
import { useServerAction } from '../common/useServerAction';
import { UI } from '../messages';
import { afterLoginTarget } from '../session';
import { handOffFirstScreen } from '../providers/firstScreen';

export function LoginPage() {
  const authProvider = useAuthProvider();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useServerAction(UI.loginFailed);
  const { errors, failure, busy: sending } = login;
  // a session ended between the page and its first call: the sign-in replaces the server's first page
  useLayoutEffect(handOffFirstScreen, []);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void login.submit(validateLogin({ username, password }), async (value) => {
      await authProvider!.login(value);
      const redirect = new URLSearchParams(window.location.search).get('redirect');
      window.location.assign(afterLoginTarget(redirect));
    });
  }

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        p: 2,
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 400 }}>
        <CardContent
          component="form"
          onSubmit={onSubmit}
          noValidate
          sx={{ display: 'flex', flexDirection: 'column', gap: 2, p: 3 }}
        >
          <Typography variant="h5" component="h1" textAlign="center">
            {appTitle()}
          </Typography>
          <Typography variant="subtitle1" textAlign="center" color="text.secondary">
            {UI.login}
          </Typography>
          {failure && (
            <Alert severity="error" data-testid="login-error">
              {failure}
            </Alert>
          )}
          <TextField
            label={UI.username}
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            error={Boolean(errors.username)}
            helperText={errors.username}
            fullWidth
          />
          <TextField
            label={UI.password}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(errors.password)}
            helperText={errors.password}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={sending}>
            {sending ? UI.loggingIn : UI.login}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
