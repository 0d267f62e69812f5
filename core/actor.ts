// Who acts: a user, the command line or the server, a store's public link, or someone not signed in.
// Each carries a Principal's fields, so permissions.ts reads any of them as it reads a user.
// `id` is a user's id only for a user: ask `actorUserId`, never compare `id` with 0.
import { PERMISSION_KEYS, type Principal } from './permissions.js';

/** A signed-in user (a Principal built without `kind` is one). */
export type UserActor = Principal & { kind?: 'user' };
/** `cli`: the command line or its operator's script; `system`: the server itself. */
export type MachineActor = Principal & { kind: 'cli' | 'system' };
/** A customer through a store's public link: that store only, reports only. */
export type LinkActor = Principal & { kind: 'link'; linkId: number; storeCode: string };
export type AnonymousActor = Principal & { kind: 'anonymous' };
export type Actor = UserActor | MachineActor | LinkActor | AnonymousActor;
type ActorKind = NonNullable<Actor['kind']>;

const NOBODY = { id: 0, permissions: [] as string[], store_id: null, accessible_stores: [] as number[] };

export function actorKind(actor: Actor): ActorKind {
  return actor.kind ?? 'user';
}

/** The signed-in user's id, or null for every other kind of actor. */
export function actorUserId(actor: Actor): number | null {
  return actorKind(actor) === 'user' ? actor.id : null;
}

/** Every permission: whoever runs the CLI already holds the database file. Any label but `system` is the CLI. */
export function systemActor(label = 'cli'): MachineActor {
  return {
    ...NOBODY,
    kind: label === 'system' ? 'system' : 'cli',
    username: label,
    role: 'admin',
    permissions: [...PERMISSION_KEYS],
  };
}

export function linkActor(link: { id: number; storeId: number; storeCode: string }): LinkActor {
  return {
    ...NOBODY,
    kind: 'link',
    linkId: link.id,
    storeCode: link.storeCode,
    username: `${LINK_ACTOR_PREFIX}${link.storeCode}`,
    role: 'user',
    store_id: link.storeId,
  };
}

/** Someone not signed in (a failed sign-in), by the name they typed. */
export function anonymousActor(username: string): AnonymousActor {
  return { ...NOBODY, kind: 'anonymous', username, role: 'user' };
}

/** How a link actor is named in the audit log's actor_username (the store code follows). */
export const LINK_ACTOR_PREFIX = 'link:';
