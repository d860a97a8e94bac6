import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
} from 'prom-client';
import type { QueueStats } from '../jobs/job-queue';

/** Where the job counts come from at each scrape (the job queue, when this process has one). */
export type QueueStatsSource = () => Promise<QueueStats[]>;

const queueStates = ['ready', 'deferred', 'active', 'failed'] as const;

/**
 * The Prometheus metrics of one process (docs/decisions/health-metrics-shutdown.md), in a registry
 * of its own so that several apps in one process (the tests) never share or clash. Label values
 * are bounded: route patterns, never raw URLs.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status_code'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Answers of 500 and above: the server's own failures, not the client's. */
  readonly httpErrors: Counter<'method' | 'route'>;
  /** Bytes of the files members upload, as stored (originals and thumbnails). */
  readonly uploadBytes: Counter<'area'>;
  readonly inferenceSeconds: Histogram<'type' | 'image_kind'>;
  /** Stored files whose bytes no longer match the digest recorded when they were stored. */
  readonly fileIntegrityFailures: Counter;
  private queueStats: QueueStatsSource | undefined;

  constructor() {
    // Event-loop lag, heap and resident memory, CPU, handles: prom-client's process metrics.
    collectDefaultMetrics({ register: this.registry });
    const counter = <L extends string>(config: CounterConfiguration<L>) =>
      new Counter<L>({ ...config, registers: [this.registry] });
    this.httpRequests = counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by route pattern.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.httpErrors = counter({
      name: 'http_server_errors_total',
      help: 'Requests answered with a status of 500 or above, by route pattern.',
      labelNames: ['method', 'route'],
    });
    this.uploadBytes = counter({
      name: 'dental_upload_bytes_total',
      help: 'Bytes of uploaded files stored, by feature (oral-photo, medical-records, dental-ai).',
      labelNames: ['area'],
    });
    this.inferenceSeconds = new Histogram({
      name: 'dental_ai_inference_seconds',
      help: 'Time one Dental AI model run took, by detection type and image kind (photo or xray).',
      labelNames: ['type', 'image_kind'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 30],
      registers: [this.registry],
    });
    this.fileIntegrityFailures = counter({
      name: 'dental_file_integrity_failures_total',
      help: 'Stored files found changed since they were stored (bit rot, a bad restore), when read to be served or exported.',
    });
    const queueStats = () => this.queueStats;
    new Gauge({
      name: 'dental_jobs',
      help: 'Jobs in the queue by state, across every process (counted from the job table at each scrape): ready is the backlog, failed the jobs that failed for good and are still kept.',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const source = queueStats();
        if (source === undefined) return;
        for (const stats of await source()) {
          for (const state of queueStates) this.set({ queue: stats.queue, state }, stats[state]);
        }
      },
    });
  }

  /** Reports the job counts from here at every scrape. */
  watchJobQueue(source: QueueStatsSource): void {
    this.queueStats = source;
  }

  /** The text exposition format Prometheus scrapes. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
