import PaymentsIcon from '@mui/icons-material/Payments';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import StorefrontIcon from '@mui/icons-material/Storefront';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { Avatar, Box, Card, CardContent, Grid, Skeleton, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { formatNTD } from '../../../core/browser';
import type { StatsSummary } from '../../../core/browser';
import { DASHBOARD_UI as T } from '../messages';

const count = new Intl.NumberFormat('zh-TW');

interface CardSpec {
  key: 'totalStores' | 'totalPayments' | 'totalAmount' | 'confirmedPayments';
  label: string;
  icon: ReactNode;
  color: string;
  format: (n: number) => string;
}

const CARDS: CardSpec[] = [
  {
    key: 'totalStores',
    label: T.totalStores,
    icon: <StorefrontIcon />,
    color: '#1565c0',
    format: (n) => count.format(n),
  },
  {
    key: 'totalPayments',
    label: T.totalPayments,
    icon: <ReceiptLongIcon />,
    color: '#6a1b9a',
    format: (n) => count.format(n),
  },
  { key: 'totalAmount', label: T.totalAmount, icon: <PaymentsIcon />, color: '#ef6c00', format: formatNTD },
  {
    key: 'confirmedPayments',
    label: T.confirmedPayments,
    icon: <TaskAltIcon />,
    color: '#2e7d32',
    format: (n) => count.format(n),
  },
];

/** Long amounts (NT$1,234,567 and up) a size smaller so they stay on one line. */
function valueSx(text: string) {
  const long = text.length > 10;
  return {
    fontWeight: 600,
    fontSize: long ? { xs: '1.05rem', sm: '1.45rem', lg: '1.35rem' } : { xs: '1.25rem', sm: '1.75rem' },
    lineHeight: 1.4,
    mt: { xs: 0.5, sm: 0.75 },
    fontVariantNumeric: 'tabular-nums',
    overflowWrap: 'anywhere' as const,
  };
}

export function SummaryCards({ data, loading }: { data: StatsSummary | null; loading: boolean }) {
  return (
    <Grid container spacing={{ xs: 1.5, md: 2 }}>
      {CARDS.map((c) => (
        <Grid key={c.key} size={{ xs: 6, lg: 3 }}>
          <Card
            variant="outlined"
            sx={{ height: '100%', borderTop: 4, borderTopColor: c.color }}
            data-testid={`stat-${c.key}`}
          >
            <CardContent sx={{ p: { xs: 1.5, sm: 2 }, '&:last-child': { pb: { xs: 1.5, sm: 2 } } }}>
              <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
                <Typography variant="body2" color="text.secondary" noWrap>
                  {c.label}
                </Typography>
                <Avatar
                  sx={{
                    bgcolor: c.color,
                    width: 36,
                    height: 36,
                    display: { xs: 'none', sm: 'flex' },
                    '& svg': { fontSize: 20 },
                  }}
                >
                  {c.icon}
                </Avatar>
              </Box>
              {data ? (
                <Typography data-testid={`stat-${c.key}-value`} component="div" sx={valueSx(c.format(data[c.key]))}>
                  {c.format(data[c.key])}
                </Typography>
              ) : loading ? (
                <Skeleton variant="text" sx={{ fontSize: '1.75rem' }} width="70%" />
              ) : (
                <Typography component="div" sx={{ ...valueSx('—'), color: 'text.disabled' }}>
                  —
                </Typography>
              )}
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
