/**
 * Who acts, as one union: a signed-in user, the command line (the machine's operator, or a script
 * of theirs), the system itself (the server's first start), a store's public link (a customer with
 * no account), or someone not signed in (a failed sign-in, named by what was typed).
 *
 * Every kind carries a Principal's fields, so the permission rules (permissions.ts) read it
 * as they read a user: the machine holds every permission, a link and an anonymous caller none.
 * Its `id` is a user's id only for a user: ask `actorUserId`, never compare `id` with 0.
 */
import { PERMISSION_KEYS, type Principal } from './permissions.js';

/** A signed-in user (a Principal built without `kind` is one). */
export type UserActor = Principal & { kind?: 'user' };
/** The machine: `cli` the command line or a script run by its operator, `system` the server itself. */
export type MachineActor = Principal & { kind: 'cli' | 'system' };
/** A customer through a store's public link: that store only, reports only. */
export type LinkActor = Principal & { kind: 'link'; linkId: number; storeCode: string };
/** Someone not signed in, named by what they typed (a failed sign-in). */
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

/**
 * The actor for commands run by the machine's operator (`remit users add` and the like):
 * whoever can run the CLI on the server already holds the database file. `system` is the server
 * itself; any other label (a script's) acts as the command line under that name.
 */
export function systemActor(label = 'cli'): MachineActor {
  return {
    ...NOBODY,
    kind: label === 'system' ? 'system' : 'cli',
    username: label,
    role: 'admin',
    permissions: [...PERMISSION_KEYS],
  };
}

/** A customer with a store's public link: no permission, the link's store as home store. */
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

/** Someone not signed in, by the name they typed. */
export function anonymousActor(username: string): AnonymousActor {
  return { ...NOBODY, kind: 'anonymous', username, role: 'user' };
}

/** How a link actor is named in the audit log's actor_username (the store code follows). */
export const LINK_ACTOR_PREFIX = 'link:';
