/**
 * For the knex command line. The product itself migrates through `remit migrate` (and on
 * `remit serve`), which use the same configuration and the same migration list.
 */
import type { Knex } from 'knex';
import { loadConfig } from './core/config.js';

const { db } = loadConfig(process.env);

const config: Knex.Config =
  db.client === 'pg'
    ? { client: 'pg', connection: db.connectionString, migrations: { directory: './migrations' } }
    : {
        client: 'sqlite3',
        connection: { filename: db.filename },
        useNullAsDefault: true,
        migrations: { directory: './migrations' },
      };

export default config;
