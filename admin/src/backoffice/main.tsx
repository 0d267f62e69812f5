import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { LOGIN_PATH } from '../config';
import { currentPath, getToken, loginUrlFor } from '../session';
import { App } from './App';

// /admin needs a stored token (spec section 2 "Routes"): without one, log in first and come back.
if (!getToken() && !window.location.pathname.startsWith(LOGIN_PATH)) window.location.replace(loginUrlFor(currentPath()));

// Clean URLs under /admin (the server answers /admin/* with this page).
createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <Routes>
      <Route path="/admin/*" element={<App />} />
    </Routes>
  </BrowserRouter>,
);
