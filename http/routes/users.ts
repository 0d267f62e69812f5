import type Router from '@koa/router';
import { createUser, deleteUser, getUser, listUsers, updateUser, type AppContext } from '../../core/index.js';
import type { State } from '../middleware/auth.js';
import { resourceRoutes } from '../resource.js';

export function userRoutes(app: AppContext): Router<State> {
  return resourceRoutes(
    app,
    'users',
    { list: listUsers, create: createUser, get: getUser, update: updateUser, remove: deleteUser },
    'manage_users',
  );
}
