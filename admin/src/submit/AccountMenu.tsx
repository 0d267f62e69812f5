// The form page's user menu. The change-password dialog (MUI) is loaded only when asked for, so the page stays light.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ACCOUNT_UI, UI } from '../messages';

const PasswordDialog = lazy(() => import('./PasswordDialog'));

export function AccountMenu(props: { username: string; onLogout: () => void; onPasswordChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className="account" ref={box}>
      <button
        type="button"
        className="btn btn-light user"
        data-testid="user-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {/* the name read aloud starts with what is seen (WCAG 2.5.3) */}
        <span data-testid="username">{props.username}</span>
        <span className="visually-hidden">（{ACCOUNT_UI.menuLabel}）</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="account-menu" role="menu">
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              setOpen(false);
              setDialog(true);
            }}
          >
            {ACCOUNT_UI.changePassword}
          </button>
          <button type="button" role="menuitem" onClick={props.onLogout}>
            {UI.logout}
          </button>
        </div>
      )}
      {dialog && (
        <Suspense fallback={null}>
          <PasswordDialog
            username={props.username}
            onClose={() => setDialog(false)}
            onChanged={props.onPasswordChanged}
          />
        </Suspense>
      )}
    </div>
  );
}
