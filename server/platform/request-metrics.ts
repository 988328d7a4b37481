import type { FastifyInstance } from "fastify";

/**
 * In-process request figures for the admin panel and /metrics. Each instance reports its own,
 * as Prometheus expects; nothing here is needed by another instance.
 */
export class RequestMetrics {
  private readonly byRoute = new Map<string, { count: number; errors: number; sumMs: number; buckets: number[] }>();
  static readonly bucketsMs = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000];

  record(method: string, route: string, status: number, ms: number): void {
    const key = `${method} ${route}`;
    let entry = this.byRoute.get(key);
    if (!entry) {
      entry = { count: 0, errors: 0, sumMs: 0, buckets: RequestMetrics.bucketsMs.map(() => 0) };
      this.byRoute.set(key, entry);
    }
    entry.count++;
    entry.sumMs += ms;
    if (status >= 500) entry.errors++;
    RequestMetrics.bucketsMs.forEach((limit, i) => {
      if (ms <= limit) entry.buckets[i]!++;
    });
  }

  summary(): { requests: number; avgResponseMs: number; successRate: number } {
    let requests = 0;
    let errors = 0;
    let sumMs = 0;
    for (const e of this.byRoute.values()) {
      requests += e.count;
      errors += e.errors;
      sumMs += e.sumMs;
    }
    return {
      requests,
      avgResponseMs: requests ? sumMs / requests : 0,
      successRate: requests ? (requests - errors) / requests : 1,
    };
  }

  prometheus(): string {
    const lines = [
      "# HELP http_request_duration_ms Request duration in milliseconds.",
      "# TYPE http_request_duration_ms histogram",
    ];
    for (const [key, e] of this.byRoute) {
      const [method, route] = key.split(" ");
      const labels = `method="${method}",route="${route}"`;
      RequestMetrics.bucketsMs.forEach((limit, i) => {
        lines.push(`http_request_duration_ms_bucket{${labels},le="${limit}"} ${e.buckets[i]}`);
      });
      lines.push(`http_request_duration_ms_bucket{${labels},le="+Inf"} ${e.count}`);
      lines.push(`http_request_duration_ms_sum{${labels}} ${e.sumMs.toFixed(3)}`);
      lines.push(`http_request_duration_ms_count{${labels}} ${e.count}`);
    }
    lines.push(
      "# HELP http_server_errors_total Responses with a 5xx status.",
      "# TYPE http_server_errors_total counter",
    );
    for (const [key, e] of this.byRoute) {
      const [method, route] = key.split(" ");
      lines.push(`http_server_errors_total{method="${method}",route="${route}"} ${e.errors}`);
    }
    return `${lines.join("\n")}\n`;
  }

  install(app: FastifyInstance): void {
    app.addHook("onResponse", async (request, reply) => {
      const route = request.routeOptions.url ?? "unmatched";
      this.record(request.method, route, reply.statusCode, reply.elapsedTime);
    });
  }
}
