// The product's tables and columns as the migrations build them, read from a scratch database: a backup's
// rows are copied by this list only, so a file's own tables, views and triggers are never used.
import { openDatabase } from '../db/connect.js';
import { knownMigrationNames, migrateTo } from '../db/migrate.js';

type ColumnKind = 'integer' | 'boolean' | 'real' | 'text';

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
  /** a varchar's length */
  max?: number;
}

export interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  /** the primary key's columns, in order: rows are read in this order, a batch at a time */
  key: string[];
}

export interface SchemaSpec {
  migrations: string[];
  /** every table a row of another points at comes before it */
  tables: TableSpec[];
}

/** knex's own: a copy is already at the schema it describes */
const KNEX_TABLES = new Set(['knex_migrations', 'knex_migrations_lock']);

function kindOf(declared: string): Pick<ColumnSpec, 'kind' | 'max'> {
  const type = declared.toLowerCase();
  const varchar = /^varchar\((\d+)\)$/.exec(type);
  if (varchar) return { kind: 'text', max: Number(varchar[1]) };
  if (type === 'text') return { kind: 'text' };
  if (/^(integer|bigint|int)$/.test(type)) return { kind: 'integer' };
  if (type === 'boolean') return { kind: 'boolean' };
  if (/^(float|real|double)/.test(type)) return { kind: 'real' };
  throw new Error(`a column type the backup does not know: ${declared}`);
}

/** Parents before children (foreign keys), else by name. */
function parentsFirst(tables: TableSpec[], parents: Map<string, string[]>): TableSpec[] {
  const out: TableSpec[] = [];
  const placed = new Set<string>();
  const visit = (t: TableSpec, path: Set<string>) => {
    if (placed.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const p of parents.get(t.name) ?? []) {
      const parent = tables.find((x) => x.name === p);
      if (parent && p !== t.name) visit(parent, path);
    }
    placed.add(t.name);
    out.push(t);
  };
  for (const t of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(t, new Set());
  return out;
}

const cache = new Map<string, Promise<SchemaSpec>>();

/** The schema after `migrations` (a prefix of the known list; the whole list by default). */
export function schemaAt(migrations: readonly string[] = knownMigrationNames()): Promise<SchemaSpec> {
  const key = migrations.join('\n');
  let spec = cache.get(key);
  if (!spec) {
    spec = readSchema([...migrations]);
    spec.catch(() => cache.delete(key));
    cache.set(key, spec);
  }
  return spec;
}

async function readSchema(migrations: string[]): Promise<SchemaSpec> {
  const db = openDatabase({ client: 'sqlite', filename: ':memory:' });
  try {
    await migrateTo(db, migrations);
    const names = (
      (await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")) as Array<{
        name: string;
      }>
    )
      .map((r) => r.name)
      .filter((n) => !KNEX_TABLES.has(n));
    const tables: TableSpec[] = [];
    const parents = new Map<string, string[]>();
    for (const name of names) {
      const info = (await db.raw(`pragma table_info(${JSON.stringify(name)})`)) as Array<{
        name: string;
        type: string;
        pk: number;
      }>;
      const fks = (await db.raw(`pragma foreign_key_list(${JSON.stringify(name)})`)) as Array<{ table: string }>;
      parents.set(
        name,
        fks.map((f) => f.table),
      );
      tables.push({
        name,
        columns: info.map((c) => ({ name: c.name, ...kindOf(c.type) })),
        key: info
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
      });
    }
    return { migrations, tables: parentsFirst(tables, parents) };
  } finally {
    await db.destroy();
  }
}
