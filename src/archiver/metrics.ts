// The archive's Prometheus metrics, on the service's registry (src/http/pipeline/metrics.ts).
import { Counter, Gauge, type Registry } from 'prom-client';

export class ArchiveMetrics {
  readonly symbolsDone: Gauge;
  readonly symbolsTotal: Gauge;
  readonly rowsWritten: Counter;
  readonly disagreements: Counter;
  readonly fetches: Counter<'outcome'>;
  readonly backoffs: Counter;
  readonly available: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.symbolsDone = new Gauge({
      name: 'psxmd_archive_symbols_done',
      help: 'symbols whose whole history is archived',
      registers,
    });
    this.symbolsTotal = new Gauge({
      name: 'psxmd_archive_symbols_total',
      help: 'listed symbols the archiver backfills',
      registers,
    });
    this.rowsWritten = new Counter({
      name: 'psxmd_archive_rows_written_total',
      help: 'daily bars written to the archive',
      registers,
    });
    this.disagreements = new Counter({
      name: 'psxmd_archive_disagreements_total',
      help: 'archived values the portal now prints differently (kept, not overwritten)',
      registers,
    });
    this.fetches = new Counter({
      name: 'psxmd_archive_fetches_total',
      help: 'portal fetches made by the archiver, by outcome',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.backoffs = new Counter({
      name: 'psxmd_archive_backoffs_total',
      help: 'times the archiver backed off',
      registers,
    });
    this.available = new Gauge({
      name: 'psxmd_archive_available',
      help: '1 while the archive store answers',
      registers,
    });
    this.available.set(1);
  }
}
