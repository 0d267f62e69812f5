import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { startFirstScreen } from '../providers/firstScreen';
import { forgetStoredToken } from '../session';
import { App } from './App';

// /admin needs a session (spec section 2 "Routes"): the authProvider's checkAuth asks the server
// (the session is an HttpOnly cookie the page cannot see) and sends the user to log in and come back.
forgetStoredToken();
// `me`, the stores and the list's first page leave now, together, not one after another once React has drawn.
startFirstScreen(window.location);

// Clean URLs under /admin (the server answers /admin/* with this page).
createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <Routes>
      <Route path="/admin/*" element={<App />} />
    </Routes>
  </BrowserRouter>,
);
