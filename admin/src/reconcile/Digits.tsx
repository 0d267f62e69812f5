import { Box } from '@mui/material';

/** The reported last five above the bank's visible digits, right-aligned; differing digits red, agreeing green. */
export function Digits({ five, digits }: { five: string; digits: string }) {
  const shown = digits.slice(-5);
  const offset = five.length - shown.length;
  const cell = (ch: string, state: 'same' | 'diff' | 'none', testid?: string) => (
    <Box
      component="span"
      data-state={state}
      data-testid={testid}
      sx={{
        display: 'inline-block',
        width: '1.2em',
        textAlign: 'center',
        borderRadius: 0.5,
        fontFamily: 'monospace',
        fontSize: '1.05rem',
        fontWeight: state === 'diff' ? 700 : 400,
        bgcolor: state === 'diff' ? 'error.light' : state === 'same' ? 'success.light' : 'transparent',
        color: state === 'diff' ? 'error.contrastText' : 'text.primary',
      }}
    >
      {ch}
    </Box>
  );
  return (
    <Box sx={{ display: 'inline-flex', flexDirection: 'column', gap: 0.25 }} aria-label="後五碼比對">
      <Box>
        {[...five].map((ch, i) => {
          const j = i - offset;
          return cell(ch, j < 0 ? 'none' : shown[j] === ch ? 'same' : 'diff', `five-${i}`);
        })}
      </Box>
      <Box>
        {[...five].map((_, i) => {
          const j = i - offset;
          return j < 0 ? cell('·', 'none') : cell(shown[j], shown[j] === five[i] ? 'same' : 'diff', `digit-${i}`);
        })}
      </Box>
    </Box>
  );
}
