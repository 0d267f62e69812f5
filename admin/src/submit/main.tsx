import { createRoot } from 'react-dom/client';
import { ApiError } from '../http';
import { loadMe } from '../providers/me';
import { forgetStoredToken } from '../session';
import { SubmitPage } from './SubmitPage';
import './submit.css';

forgetStoredToken();
// `/` needs a session (spec section 2 "Routes"). The session is an HttpOnly cookie the page
// cannot see, so the server is asked: on 401 the client sends the user to log in and come back.
loadMe().then(
  (me) => createRoot(document.getElementById('root')!).render(<SubmitPage initialMe={me} />),
  (err) => {
    if (!(err instanceof ApiError && err.status === 401))
      createRoot(document.getElementById('root')!).render(<SubmitPage />);
  },
);
