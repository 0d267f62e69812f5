import { describe, expect, it } from 'vitest';
import { actorKind, actorUserId, anonymousActor, linkActor, systemActor } from './actor.js';
import { can, inScope, submitStoreRefusal } from './permissions.js';

describe('who acts', () => {
  const user = {
    id: 7,
    username: 'amy',
    role: 'user' as const,
    permissions: ['view_payments'],
    store_id: 1,
    accessible_stores: [],
  };
  it('only a signed-in user has a user id; the machine, a link and a stranger have none', () => {
    expect(actorUserId(user)).toBe(7);
    expect(actorKind(user)).toBe('user');
    expect(actorUserId(systemActor())).toBeNull();
    expect(actorKind(systemActor())).toBe('cli');
    expect(actorKind(systemActor('system'))).toBe('system');
    expect(actorKind(systemActor('script'))).toBe('cli');
    expect(actorUserId(linkActor({ id: 3, storeId: 2, storeCode: 'TXG' }))).toBeNull();
    expect(actorUserId(anonymousActor('guess'))).toBeNull();
  });
  it('the machine holds every permission; a link none, and only its own store', () => {
    expect(can(systemActor(), 'system_admin')).toBe(true);
    const link = linkActor({ id: 3, storeId: 2, storeCode: 'TXG' });
    expect(can(link, 'view_payments')).toBe(false);
    expect(inScope(link, 2)).toBe(true);
    expect(inScope(link, 1)).toBe(false);
    expect(submitStoreRefusal(link, 1)).not.toBeNull();
    expect(submitStoreRefusal(link, 2)).toBeNull();
  });
});
