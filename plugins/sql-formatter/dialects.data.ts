/**
 * The contract's dialect names and the sql-formatter `language` each one uses (sql-formatter
 * 15.9 has every one of them; only `tsql` is spelled differently there).
 */
export const DIALECT_LANGUAGES = {
  sql: 'sql',
  postgresql: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mariadb',
  sqlite: 'sqlite',
  tsql: 'transactsql',
  plsql: 'plsql',
  bigquery: 'bigquery',
  snowflake: 'snowflake',
  redshift: 'redshift',
  spark: 'spark',
  duckdb: 'duckdb',
  clickhouse: 'clickhouse',
  trino: 'trino',
  db2: 'db2',
  hive: 'hive',
} as const;

export type Dialect = keyof typeof DIALECT_LANGUAGES;

export const DIALECTS = Object.keys(DIALECT_LANGUAGES) as Dialect[];
