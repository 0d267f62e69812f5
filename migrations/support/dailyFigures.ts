/**
 * Per-day figures kept by triggers: a table of counts and sums per key and Taiwan day
 * (payment_daily), kept in the same transaction as every insert, update and delete of the rows it
 * counts. The SQL for both databases comes from one description, so SQLite and PostgreSQL cannot
 * disagree.
 *
 * Migrations are history: this file belongs to them and imports nothing from core, so a change in
 * core never changes what an old migration does. Its output for each migration's description is
 * pinned by test/daily-figures-sql.test.ts; a change here that would rewrite what an old migration
 * created fails that test. Such a change is a new migration with its own copy, not an edit.
 */
import type { Knex } from 'knex';

type SqlDialect = 'pg' | 'sqlite';

export const dialectOf = (knex: Knex): SqlDialect => (knex.client.config.client === 'pg' ? 'pg' : 'sqlite');

/** The Taiwan day number (days since 1970-01-01 in UTC+8) of an epoch-milliseconds column, as core/time.ts computed it when these migrations were written. */
const taipeiDayNumberSql = (column: string) => `((${column} + 28800000) / 86400000)`;

export interface DailyFigures {
  /** the figures' table, e.g. payment_daily: its key columns, `day`, `n` and one column per sum */
  table: string;
  /** the table whose rows are counted */
  source: string;
  /** the source's time column (epoch milliseconds) that decides the Taiwan day */
  time: string;
  /** the columns the figures are kept by, besides the day (the source's and the table's names agree) */
  keys: readonly string[];
  /** the columns summed (same name in both tables) */
  sums: readonly string[];
  /** the triggers' (and PostgreSQL function's) name prefix */
  trigger: string;
  /**
   * Figures per run of days instead of per day: the column holding the run's number (the Taiwan
   * day number divided by `days`, so a run is whole days and needs no calendar in SQL). Absent:
   * one row per day in `day`, as every description before it wrote.
   */
  period?: { column: string; days: number };
}

interface DailyFiguresSql {
  /** creates the function (PostgreSQL) and the triggers */
  create: string[];
  /** drops them (idempotent) */
  drop: string[];
  /** fills the table from the source's rows as they stand (the table must be empty) */
  backfill: string;
}

export function dailyFiguresSql(f: DailyFigures, dialect: SqlDialect): DailyFiguresSql {
  const dayCol = f.period?.column ?? 'day';
  const dayOf = (time: string) =>
    f.period ? `(${taipeiDayNumberSql(time)} / ${f.period.days})` : taipeiDayNumberSql(time);
  const day = (row: string) => dayOf(`${row}.${f.time}`);
  const columns = [...f.keys, dayCol, 'n', ...f.sums];
  const conflict = [...f.keys, dayCol].join(', ');
  const add = (row: string) =>
    `insert into ${f.table} (${columns.join(', ')}) values (${[...f.keys.map((k) => `${row}.${k}`), day(row), '1', ...f.sums.map((s) => `${row}.${s}`)].join(', ')}) ` +
    `on conflict (${conflict}) do update set ${['n', ...f.sums].map((c) => `${c} = ${f.table}.${c} + excluded.${c}`).join(', ')}`;
  const remove = (row: string) =>
    `update ${f.table} set ${['n = n - 1', ...f.sums.map((s) => `${s} = ${s} - ${row}.${s}`)].join(', ')} ` +
    `where ${[...f.keys.map((k) => `${k} = ${row}.${k}`), `${dayCol} = ${day(row)}`].join(' and ')}`;
  const sourceDay = dayOf(f.time);
  const backfill =
    `insert into ${f.table} (${columns.join(', ')}) ` +
    `select ${[...f.keys, sourceDay, 'count(*)', ...f.sums.map((s) => `sum(${s})`)].join(', ')} from ${f.source} group by ${[...f.keys, sourceDay].join(', ')}`;

  if (dialect === 'pg') {
    const fn = `${f.trigger}_apply`;
    return {
      create: [
        `create function ${fn}() returns trigger as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${remove('old')}; end if;
        if tg_op in ('UPDATE', 'INSERT') then ${add('new')}; end if;
        return null;
      end $$ language plpgsql`,
        `create trigger ${f.trigger} after insert or update or delete on ${f.source} for each row execute function ${fn}()`,
      ],
      drop: [`drop trigger if exists ${f.trigger} on ${f.source}`, `drop function if exists ${fn}()`],
      backfill,
    };
  }
  const watched = [...f.keys, f.time, ...f.sums].join(', ');
  return {
    create: [
      `create trigger ${f.trigger}_ins after insert on ${f.source} begin ${add('new')}; end`,
      `create trigger ${f.trigger}_del after delete on ${f.source} begin ${remove('old')}; end`,
      `create trigger ${f.trigger}_upd after update of ${watched} on ${f.source} begin ${remove('old')}; ${add('new')}; end`,
    ],
    drop: ['ins', 'del', 'upd'].map((s) => `drop trigger if exists ${f.trigger}_${s}`),
    backfill,
  };
}
