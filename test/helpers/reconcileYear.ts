/** A generated stretch of reports and their statement in a test database: the bench's own seeder. */
export { seedReconcile } from '../../bench/reconcile-seed.js';
