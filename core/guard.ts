import { ForbiddenError, ValidationError, problem, type Problem } from './errors.js';
import { PERMISSIONS, can, isAdmin, scopeIsEmpty, type Permission, type Principal } from './permissions.js';
import type { Validated } from './validation.js';
import { actorUserId, type Actor } from './actor.js';

/** Refuses an actor lacking a permission, naming it in the message. */
export function requirePermission(actor: Principal, permission: Permission): void {
  if (!can(actor, permission))
    throw new ForbiddenError(problem('permission_required', { permission, label: PERMISSIONS[permission].label }));
}

export function valid<T>(result: Validated<T>): T {
  if (!result.ok) throw new ValidationError(result.errors);
  return result.value;
}

/** A refusal from a pure rule (permissions.ts's `…Refusal`) becomes a ForbiddenError. */
export function deny(reason: Problem | null): void {
  if (reason) throw new ForbiddenError(reason);
}

/** Refuses an actor holding none of `permissions` (the first one is named in the message). */
export function requireAnyPermission(actor: Principal, ...permissions: Permission[]): void {
  if (!permissions.some((p) => can(actor, p))) requirePermission(actor, permissions[0]);
}

/** Refuses an actor with no store to submit for: createPayment would refuse whatever they send. */
export function requireSubmitter(actor: Principal): void {
  if (!isAdmin(actor) && scopeIsEmpty(actor)) throw new ForbiddenError(problem('store_out_of_scope'));
}

/** Refuses all but a signed-in user: acting on one's own account needs one. `refusal` says why. */
export function requireSignedIn(actor: Actor, refusal: Problem): void {
  if (actorUserId(actor) === null) throw new ForbiddenError(refusal);
}
