/**
 * The back office's change-password dialog on the form page, which has no MUI theme of its own:
 * loaded on demand (AccountMenu), with a theme in the form page's colours and MUI's zh-TW locale.
 */
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { zhTW } from '@mui/material/locale';
import { ChangePasswordDialog } from '../account/ChangePasswordDialog';

const theme = createTheme(
  {
    palette: { primary: { main: '#1565c0' } },
    typography: {
      fontFamily:
        "system-ui, -apple-system, 'Segoe UI', 'PingFang TC', 'Noto Sans TC', 'Microsoft JhengHei', sans-serif",
      button: { textTransform: 'none' },
    },
  },
  zhTW,
);

export default function PasswordDialog(props: { onClose: () => void; onChanged: () => void; username?: string }) {
  return (
    <ThemeProvider theme={theme}>
      <ChangePasswordDialog {...props} />
    </ThemeProvider>
  );
}
