// The payment form `/`: light enough for a phone, no react-admin; core's rules, so form and server agree.
import { useEffect, useRef, useState } from 'react';
import {
  canAccess,
  isBranchUser,
  METHOD_TRANSFER,
  needsLastFive,
  PAYMENT_METHODS,
  paymentWords,
  scopeIsEmpty,
  storesInScope,
} from '../../../core/browser';
import type { Me } from '../../../core/browser';
import { appTitle } from '../config';
import { api } from '../http';
import { UI } from '../messages';
import { loadMe } from '../providers/me';
import { signOutOnServer } from '../session';
import { AccountMenu } from './AccountMenu';
import { CashOutForm } from './CashOutForm';
import { MethodFields } from './MethodFields';
import { AmountField, LastFiveField, LockToggle, NoteField, PaidAtField, StoreField } from './PaymentFields';
import { useSubmitForm, type Banner, type Doubt, type SubmitForm } from './useSubmitForm';

interface Store {
  id: number;
  name: string;
  code: string;
}

type Scope = ReturnType<typeof submitScope>;

function useSignedIn(title: string, initialMe: Me | null, onStore: (id: number) => void) {
  const [me, setMe] = useState<Me | null>(initialMe);
  const [stores, setStores] = useState<Store[]>([]);
  useEffect(() => {
    document.title = title;
    loadMe().then(
      (m) => {
        setMe(m);
        if (m.store_id !== null) onStore(m.store_id);
      },
      (e) => console.error('載入用戶資料失敗', e),
    );
    api<Store[]>('GET', '/stores').then(setStores, (e) => console.error('載入分店失敗', e));
  }, [title, onStore]);
  return { me, stores };
}

function submitScope(me: Me | null, stores: Store[]) {
  const locked = me !== null && isBranchUser(me);
  // with no store to submit for, they are told before typing
  const offered = me ? storesInScope(me, stores) : [];
  return {
    me,
    locked,
    lockedStore: locked ? stores.find((s) => s.id === me!.store_id) : undefined,
    offered,
    storeRequired: offered.length > 0,
    noStore: me !== null && scopeIsEmpty(me),
    // a transfer report is everyone's; cash, card and e-payment are 記錄收款's
    methods: me && canAccess(me, 'submit', 'takings') ? PAYMENT_METHODS : [METHOD_TRANSFER],
  };
}

/** `initialMe`: when the page already asked, so the name shows at once. */
export function SubmitPage({ initialMe = null }: { initialMe?: Me | null } = {}) {
  const title = appTitle();
  const entry = useSubmitForm(initialMe?.store_id ?? null);
  const { me, stores } = useSignedIn(title, initialMe, entry.takeStore);
  const scope = submitScope(me, stores);
  const { banner, doubt } = entry;
  return (
    <div className="page">
      <PageBar
        title={title}
        username={me?.username ?? UI.unknownUser}
        onPasswordChanged={() => entry.setBanner({ kind: 'success', text: UI.passwordChanged })}
      />
      <main className="card">
        {banner && <MessageBanner banner={banner} />}
        {doubt && (
          <DoubtBanner
            doubt={doubt}
            onAnyway={() =>
              entry.submit(null, doubt.kind === 'time' ? { time: true } : { time: true, duplicate: true }, scope)
            }
            onBack={() => entry.setDoubt(null)}
          />
        )}
        {scope.noStore && (
          <div className="banner banner-warn" role="alert" data-testid="no-store">
            <strong>{UI.noStoreTitle}</strong>
            <p>{UI.noStoreForm}</p>
          </div>
        )}
        <PaymentForm entry={entry} scope={scope} />
      </main>
      {me && canAccess(me, 'submit', 'cash_out') && (
        <CashOutForm
          stores={scope.offered}
          lockedStoreId={scope.locked ? me.store_id : null}
          disabled={scope.noStore}
        />
      )}
    </div>
  );
}

function PageBar({
  title,
  username,
  onPasswordChanged,
}: {
  title: string;
  username: string;
  onPasswordChanged: () => void;
}) {
  async function logout() {
    await signOutOnServer();
    window.location.assign('/admin/login');
  }
  return (
    <header className="bar">
      <h1>{title}</h1>
      <div className="bar-actions">
        <AccountMenu username={username} onLogout={logout} onPasswordChanged={onPasswordChanged} />
        <a className="btn btn-light" href="/admin">
          {UI.toAdmin}
        </a>
        <button type="button" className="btn btn-light" onClick={logout}>
          {UI.logout}
        </button>
      </div>
    </header>
  );
}

function MessageBanner({ banner }: { banner: NonNullable<Banner> }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => bringIntoView(ref.current), [banner]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={`banner banner-${banner.kind}`}
      role={banner.kind === 'error' ? 'alert' : 'status'}
      data-testid={`banner-${banner.kind}`}
    >
      {banner.text}
    </div>
  );
}

function DoubtBanner({
  doubt,
  onAnyway,
  onBack,
}: {
  doubt: NonNullable<Doubt>;
  onAnyway: () => void;
  onBack: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => bringIntoView(ref.current), [doubt]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="banner banner-warn"
      role="alertdialog"
      aria-labelledby="doubt-title"
      aria-describedby="doubt-text"
      data-testid={`doubt-${doubt.kind}`}
    >
      <strong id="doubt-title">{doubt.title}</strong>
      <p id="doubt-text">{doubt.text}</p>
      <div className="doubt-actions">
        <button type="button" className="btn btn-primary" onClick={onAnyway}>
          {UI.submitAnyway}
        </button>
        <button type="button" className="btn btn-light-on-card" onClick={onBack}>
          {UI.checkAgain}
        </button>
      </div>
    </div>
  );
}

function PaymentForm({ entry, scope }: { entry: SubmitForm; scope: Scope }) {
  const { form, errors, set } = entry;
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (entry.showErrors)
      bringIntoView(
        formRef.current?.querySelector<HTMLElement>(
          '[aria-invalid="true"], .methods[aria-describedby] input, .has-error input, .has-error select',
        ) ?? null,
      );
  }, [entry.showErrors]);
  const transfer = needsLastFive(form.method);
  const words = paymentWords(form.method);
  const lock = (key: keyof typeof entry.locks, label: string) => (
    <LockToggle label={label} on={entry.locks[key]} onToggle={() => entry.toggle(key)} />
  );
  return (
    <form ref={formRef} onSubmit={(e) => entry.submit(e, {}, scope)} noValidate data-testid="payment-form">
      <fieldset className="fields" disabled={scope.noStore}>
        <MethodFields
          methods={scope.methods}
          value={form}
          onChange={entry.setMethod}
          error={errors.method}
          detailError={errors.method_detail}
          lock={lock('method', UI.method)}
        />
        {transfer && <LastFiveField value={form.last_five} error={errors.last_five} onChange={set('last_five')} />}
        <PaidAtField
          label={words.time}
          value={entry.paidAtShown}
          error={errors.paid_at}
          onChange={set('paid_at')}
          onNow={form.paid_at ? entry.followClock : undefined}
          lock={lock('paid_at', words.time)}
        />
        <AmountField
          label={words.amount}
          value={form.amount}
          error={errors.amount}
          onChange={set('amount')}
          lock={lock('amount', words.amount)}
        />
        {scope.offered.length > 0 && (
          <StoreField
            locked={scope.locked}
            lockedStore={scope.lockedStore}
            offered={scope.offered}
            value={form.store_id}
            error={errors.store_id}
            onChange={set('store_id')}
            hint={UI.branchHint(transfer)}
            lock={scope.locked ? undefined : lock('store_id', UI.chooseStore)}
          />
        )}
        <NoteField value={form.note} error={errors.note} onChange={set('note')} />
        <button type="submit" className="btn btn-primary submit" disabled={entry.submitting || scope.noStore}>
          {entry.submitting ? UI.submitting : transfer ? UI.submit : UI.submitSale(form.method)}
        </button>
      </fieldset>
    </form>
  );
}

/** On a phone the form's top is far above the button pressed: what to read next is centred and focused. */
function bringIntoView(el: HTMLElement | null) {
  if (!el) return;
  el.scrollIntoView({ block: 'center' });
  el.focus({ preventScroll: true });
}
