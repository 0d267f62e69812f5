import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { startFirstScreen } from '../providers/firstScreen';
import { forgetStoredToken } from '../session';
import { App } from './App';

forgetStoredToken();
// `me`, the stores and the list's first page leave now, together, before React draws
startFirstScreen(window.location);

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <Routes>
      <Route path="/admin/*" element={<App />} />
    </Routes>
  </BrowserRouter>,
);
