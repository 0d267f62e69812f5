/** Says loudly, once per run, which databases the suite covers. */
export default function setup(): void {
  const pg = process.env.REMIT_TEST_PG_URL;
  if (pg) {
    console.log(
      `\n[remit tests] databases: SQLite and PostgreSQL (${pg.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@')})\n`,
    );
  } else {
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n[remit tests] REMIT_TEST_PG_URL is not set: database tests run on SQLite ONLY.\n` +
        `  PostgreSQL runs are SKIPPED. CI (.ci/run) sets it; locally run:\n` +
        `  REMIT_TEST_PG_URL=postgres://postgres@127.0.0.1:5432/test npm test\n${line}\n`,
    );
  }
}
