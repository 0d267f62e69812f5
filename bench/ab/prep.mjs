// Seeds a database with one tree's own code (bench/ab/compare.sh): node prep.mjs TREE FILE ROWS [empty]
// ROWS payments as the bench seeds them, or with `empty` the bench's stores only (an import's target).
const [tree, out, rows, empty] = process.argv.slice(2);
const core = await import(`${tree}/dist/core/index.js`);
const data = await import(`${tree}/build/bench/data.js`);
const k = core.openDatabase({ client: 'sqlite', filename: out });
await core.migrateLatest(k);
if (empty) {
  await k('payments').del();
  await data.seedDatabase(k, 0);
} else {
  await data.seedDatabaseFast(k, Number(rows), 'ab');
  await k.raw('pragma wal_checkpoint(truncate)');
}
await k.destroy();
