import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './eventually';
import { logDir } from './test-stack';

/** The ports of e2e/jaeger/config.yaml. */
export const JAEGER_OTLP_HTTP = 'http://127.0.0.1:14318';
const QUERY = 'http://127.0.0.1:16687';

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  references: { refType: string; traceID: string; spanID: string }[];
  tags: { key: string; value: unknown }[];
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/** A real Jaeger v2 (built from its Go module, in the background while the suite runs), its output in the e2e logs. */
export class Jaeger {
  private constructor(private readonly child: ChildProcess) {}

  /** `bin`: the Jaeger executable (`builtTool('jaeger')`). */
  static async start(bin: string): Promise<Jaeger> {
    const log = openSync(join(logDir(), 'jaeger.log'), 'a');
    const child = spawn(bin, ['--config', `file:${join(__dirname, '..', '..', 'jaeger', 'config.yaml')}`], { stdio: ['ignore', log, log] });
    closeSync(log);
    const jaeger = new Jaeger(child);
    await eventually(async () => (await fetch(`${QUERY}/api/services`).catch(() => undefined))?.ok, 30_000, 200);
    return jaeger;
  }

  /** The trace as Jaeger's query API returns it, once `done` holds for it. */
  trace(traceId: string, done: (trace: JaegerTrace) => boolean, timeoutMs = 30_000): Promise<JaegerTrace> {
    return eventually(async () => {
      const res = await fetch(`${QUERY}/api/traces/${traceId}`);
      if (!res.ok) return undefined;
      const body = (await res.json()) as { data?: JaegerTrace[] };
      const found = body.data?.[0];
      return found && done(found) ? found : undefined;
    }, timeoutMs, 250);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** The services a trace's spans come from. */
export const servicesOf = (trace: JaegerTrace): Set<string> => new Set(trace.spans.map((s) => trace.processes[s.processID]?.serviceName));

/** The spans of one service. */
export const spansOf = (trace: JaegerTrace, service: string): JaegerSpan[] => trace.spans.filter((s) => trace.processes[s.processID]?.serviceName === service);
