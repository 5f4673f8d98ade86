// Which archive a deployment has: PostgreSQL when DATABASE_URL is set (shared by replicas), else
// SQLite in CACHE_DIR. The PostgreSQL client is loaded only when configured.
import type { ArchiveStore } from './store.ts';
import { SqliteArchive } from './sqlite-archive.ts';

export async function openArchive(opts: { databaseUrl?: string; dir: string }): Promise<ArchiveStore> {
  if (opts.databaseUrl) return new (await import('./postgres-archive.ts')).PostgresArchive(opts.databaseUrl);
  return new SqliteArchive(opts.dir);
}
