/**
 * Whether the standard OpenTelemetry variables ask for traces: an OTLP endpoint, or a traces
 * exporter other than `none`; `OTEL_SDK_DISABLED=true` wins. Nothing set: tracing stays off.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(',').map((e) => e.trim()).filter((e) => e !== '');
  if (exporters !== undefined && exporters.length > 0) return exporters.some((e) => e !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}
