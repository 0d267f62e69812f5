import { createRoot } from 'react-dom/client';
import { currentPath, getToken, loginUrlFor } from '../session';
import { SubmitPage } from './SubmitPage';
import './submit.css';

// `/` needs a stored token (spec section 2 "Routes"): without one, log in first and come back.
if (!getToken()) {
  window.location.replace(loginUrlFor(currentPath()));
} else {
  createRoot(document.getElementById('root')!).render(<SubmitPage />);
}
