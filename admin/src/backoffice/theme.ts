import { zhTW } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';
import { defaultTheme } from 'react-admin';

const PAGINATION_LABEL = '分頁導覽';

// A checkbox's aria-label on MUI's outer `<span>` (react-admin's row checkboxes) names nothing (axe `label`):
// moved to the input unless the input has its own.
type CheckboxOwner = { 'aria-label'?: string; inputProps?: Record<string, unknown> };
const checkboxSlotProps = {
  root: (o: CheckboxOwner) => (o['aria-label'] ? { 'aria-label': undefined } : {}),
  input: (o: CheckboxOwner) => ({
    ...o.inputProps,
    ...(o['aria-label'] && !o.inputProps?.['aria-label'] ? { 'aria-label': o['aria-label'] } : {}),
  }),
};

/** Every text colour reaches WCAG AA (4.5:1) on the backgrounds it is used on. */
export const theme = createTheme(
  {
    ...defaultTheme,
    // 未確認 is yellow, not MUI's orange; dark text keeps the yellow chip readable
    palette: {
      ...defaultTheme.palette,
      primary: { main: '#1565c0' },
      // MUI's #2196f3 is 3.1:1 on white
      secondary: { main: '#5e35b1' },
      // MUI's #d32f2f is 3.9:1 on the batch bar
      error: { main: '#c62828' },
      warning: { main: '#fbc02d', contrastText: 'rgba(0, 0, 0, 0.87)' },
    },
    typography: {
      fontFamily:
        "system-ui, -apple-system, 'Segoe UI', 'PingFang TC', 'Noto Sans TC', 'Microsoft JhengHei', sans-serif",
      // labels keep their wording (Excel 匯入, not EXCEL 匯入)
      button: { textTransform: 'none' },
    },
    components: {
      ...defaultTheme.components,
      // MUI names it "pagination navigation" whatever the locale
      MuiPagination: { defaultProps: { 'aria-label': PAGINATION_LABEL } },
      MuiCheckbox: { defaultProps: { slotProps: checkboxSlotProps as never } },
      // the batch bar: a paler blue, so the red 刪除 on it reads (4.9:1)
      RaBulkActionsToolbar: {
        styleOverrides: {
          root: {
            '& .RaBulkActionsToolbar-toolbar:not(.RaBulkActionsToolbar-collapsed)': { backgroundColor: '#e8f0fa' },
          },
        },
      },
      // 復原 on the dark notice: the primary blue is 3.3:1 there, this pale one 8:1
      RaNotification: { styleOverrides: { root: { '& .RaNotification-undo': { color: '#90caf9' } } } },
      // react-admin's 權限不足 is drawn at half opacity (2.1:1)
      RaAccessDenied: {
        styleOverrides: { root: { '& .RaAccessDenied-message': { opacity: 1, color: 'rgba(0, 0, 0, 0.6)' } } },
      },
    } as never,
  },
  zhTW,
);
