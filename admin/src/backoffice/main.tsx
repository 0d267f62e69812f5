import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { forgetStoredToken } from '../session';
import { App } from './App';

// /admin needs a session (spec section 2 "Routes"): the authProvider's checkAuth asks the server
// (the session is an HttpOnly cookie the page cannot see) and sends the user to log in and come back.
forgetStoredToken();

// Clean URLs under /admin (the server answers /admin/* with this page).
createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <Routes>
      <Route path="/admin/*" element={<App />} />
    </Routes>
  </BrowserRouter>,
);
