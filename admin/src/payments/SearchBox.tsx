import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { PAYMENTS_UI as P } from '../messages';

/** The list asks once the typing pauses, not on every key. */
export function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const [text, setText] = useState(value);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value.trim()) return;
    const t = setTimeout(() => latest.current(text.trim()), 350);
    return () => clearTimeout(t);
  }, [text, value]);
  return (
    <TextField
      size="small"
      variant="outlined"
      type="search"
      value={text}
      placeholder={P.search}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && onChange(text.trim())}
      margin="none"
      sx={{ width: { xs: 'auto', sm: 170 }, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
      slotProps={{
        htmlInput: { 'aria-label': P.search, 'data-testid': 'filter-search' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
