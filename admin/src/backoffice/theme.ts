import { zhTW } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';
import { defaultTheme } from 'react-admin';

/** react-admin's theme with MUI's Traditional Chinese (Taiwan) locale. */
export const theme = createTheme(
  {
    ...defaultTheme,
    palette: { ...defaultTheme.palette, primary: { main: '#1565c0' } },
    typography: {
      fontFamily: "system-ui, -apple-system, 'Segoe UI', 'PingFang TC', 'Noto Sans TC', 'Microsoft JhengHei', sans-serif",
      // Labels keep the spec's wording (Excel 匯入, not EXCEL 匯入).
      button: { textTransform: 'none' },
    },
  },
  zhTW,
);
