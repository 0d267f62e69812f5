import { createRoot } from 'react-dom/client';
import { ApiError } from '../http';
import { loadMe } from '../providers/me';
import { forgetStoredToken } from '../session';
import { SubmitPage } from './SubmitPage';
import './submit.css';

forgetStoredToken();
// the session is an HttpOnly cookie the page cannot see: the server is asked, and a 401 goes to sign in
loadMe().then(
  (me) => createRoot(document.getElementById('root')!).render(<SubmitPage initialMe={me} />),
  (err) => {
    if (!(err instanceof ApiError && err.status === 401))
      createRoot(document.getElementById('root')!).render(<SubmitPage />);
  },
);
