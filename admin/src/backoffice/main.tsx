import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { App } from './App';

// Clean URLs under /admin (the server answers /admin/* with this page).
createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <Routes>
      <Route path="/admin/*" element={<App />} />
    </Routes>
  </BrowserRouter>,
);
