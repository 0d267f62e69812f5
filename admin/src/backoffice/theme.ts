import { zhTW } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';
import { defaultTheme } from 'react-admin';

/** The accessible name of every list's page navigation. */
export const PAGINATION_LABEL = '分頁導覽';

/** react-admin's theme with MUI's Traditional Chinese (Taiwan) locale. */
export const theme = createTheme(
  {
    ...defaultTheme,
    // 未確認 is yellow in the spec; MUI's warning is orange. Dark text keeps the yellow chip readable.
    palette: { ...defaultTheme.palette, primary: { main: '#1565c0' }, warning: { main: '#fbc02d', contrastText: 'rgba(0, 0, 0, 0.87)' } },
    typography: {
      fontFamily: "system-ui, -apple-system, 'Segoe UI', 'PingFang TC', 'Noto Sans TC', 'Microsoft JhengHei', sans-serif",
      // Labels keep the spec's wording (Excel 匯入, not EXCEL 匯入).
      button: { textTransform: 'none' },
    },
    components: {
      ...defaultTheme.components,
      // MUI names the pages' <nav> "pagination navigation" whatever the locale.
      MuiPagination: { defaultProps: { 'aria-label': PAGINATION_LABEL } },
    },
  },
  zhTW,
);
