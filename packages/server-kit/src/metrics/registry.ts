import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The metrics of one deployable: its own prom-client registry (several deployables share a process
 * in tests, each with its own `/metrics`), labelled `service=<name>`, with Node's process metrics.
 * Metrics are made through it once, by name: asking twice for a name gives the same metric.
 */
export class DeployableMetrics {
  readonly registry = new Registry();

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return (
      this.existing<Counter<L>>(name) ?? new Counter({ name, help, labelNames, registers: [this.registry] })
    );
  }

  /** A gauge; with `collect`, its value is computed at each scrape (cheap reads only). */
  gauge<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    collect?: (gauge: Gauge<L>) => Promise<void> | void,
  ): Gauge<L> {
    return (
      this.existing<Gauge<L>>(name) ??
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        ...(collect
          ? {
              async collect(this: Gauge<L>) {
                await collect(this);
              },
            }
          : {}),
      })
    );
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): Histogram<L> {
    return (
      this.existing<Histogram<L>>(name) ??
      new Histogram({ name, help, labelNames, buckets, registers: [this.registry] })
    );
  }

  /** The exposition text (Prometheus format 0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private existing<M>(name: string): M | undefined {
    return this.registry.getSingleMetric(name) as M | undefined;
  }
}
