{{/* Names, labels and each app's settings, shared by every template. */}}

{{- define "tailsync.fullname" -}}
{{- if contains "tailsync" .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-tailsync" .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The three apps: each one's values key, name, and ports (the images' defaults, as in compose). */}}
{{- define "tailsync.apps" -}}
gateway: { key: gateway, component: gateway, managementPort: 9464, apiPort: 3000 }
tailSync: { key: tailSync, component: tail-sync, managementPort: 3001, grpcPort: 50051 }
webhookDispatcher: { key: webhookDispatcher, component: webhook-dispatcher, managementPort: 3002, grpcPort: 50051 }
{{- end -}}

{{/* An app by its values key: (include "tailsync.app" (list $ "tailSync") | fromYaml). */}}
{{- define "tailsync.app" -}}
{{- index (include "tailsync.apps" (index . 0) | fromYaml) (index . 1) | toYaml -}}
{{- end -}}

{{- define "tailsync.name" -}}
{{- printf "%s-%s" (include "tailsync.fullname" (index . 0)) (index . 1).component -}}
{{- end -}}

{{- define "tailsync.selectorLabels" -}}
app.kubernetes.io/name: tailsync
app.kubernetes.io/instance: {{ (index . 0).Release.Name }}
app.kubernetes.io/component: {{ (index . 1).component }}
{{- end -}}

{{- define "tailsync.labels" -}}
{{ include "tailsync.selectorLabels" . }}
app.kubernetes.io/part-of: tailsync
app.kubernetes.io/version: {{ (index . 0).Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ (index . 0).Release.Service }}
helm.sh/chart: {{ printf "%s-%s" (index . 0).Chart.Name (index . 0).Chart.Version }}
{{- end -}}

{{/* Labels of the chart's own objects that belong to no one app (the Secret, the rules). */}}
{{- define "tailsync.commonLabels" -}}
app.kubernetes.io/name: tailsync
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: tailsync
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "tailsync.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "tailsync.fullname" .)) -}}
{{- end -}}

{{/*
  Where the service network's certificates come from: "existingSecret" (the operator's Secrets,
  all three named), "certManager" (Certificate objects) or "chart" (made here, kept on upgrade).
*/}}
{{- define "tailsync.grpcTlsSource" -}}
{{- $tls := .Values.grpcTls -}}
{{- $given := list $tls.existingSecret.gateway $tls.existingSecret.tailSync $tls.existingSecret.webhookDispatcher | compact -}}
{{- if and (gt (len $given) 0) (lt (len $given) 3) -}}
{{- fail "grpcTls.existingSecret: name all three Secrets (gateway, tailSync, webhookDispatcher), or none" -}}
{{- end -}}
{{- if and $given $tls.certManager.enabled -}}
{{- fail "grpcTls: existingSecret and certManager.enabled exclude each other: your Secrets, or cert-manager's" -}}
{{- end -}}
{{- if $given -}}existingSecret{{- else if $tls.certManager.enabled -}}certManager{{- else -}}chart{{- end -}}
{{- end -}}

{{/* The Secret holding an app's certificate, key and CA: (include "tailsync.grpcTlsSecretName" (list $ $app)). */}}
{{- define "tailsync.grpcTlsSecretName" -}}
{{- $root := index . 0 -}}
{{- $app := index . 1 -}}
{{- if eq (include "tailsync.grpcTlsSource" $root) "existingSecret" -}}
{{- index $root.Values.grpcTls.existingSecret $app.key -}}
{{- else -}}
{{- printf "%s-grpc-tls" (include "tailsync.name" (list $root $app)) -}}
{{- end -}}
{{- end -}}

{{/* The DNS names of an app's certificate: its bare name, which the gateway checks, and its Service's names. */}}
{{- define "tailsync.grpcTlsDnsNames" -}}
{{- $root := index . 0 -}}
{{- $app := index . 1 -}}
{{- $service := include "tailsync.name" (list $root $app) -}}
- {{ $app.component }}
{{- if ne $app.key "gateway" }}
- {{ $service }}
- {{ printf "%s.%s.svc" $service $root.Release.Namespace }}
- {{ printf "%s.%s.svc.%s" $service $root.Release.Namespace $root.Values.clusterDomain }}
{{- end }}
{{- end -}}

{{/* The secret files an app reads (mounted at /run/secrets/<key>, read through *_FILE), as a YAML list. */}}
{{- define "tailsync.secretKeys" -}}
{{- $root := index . 0 -}}
{{- $app := index . 1 -}}
{{- $sasl := ne $root.Values.kafka.sasl.mechanism "" -}}
{{- if eq $app.key "gateway" }}
- admin_token
- jwt_secret
- service_signing_key
- gateway_database_password
{{- else if eq $app.key "tailSync" }}
- service_verify_key
- tail_sync_database_password
{{- if $sasl }}
- kafka_tail_sync_password
{{- end }}
{{- if eq $root.Values.tailSync.eventStore "esdb" }}
- eventstore_connection_string
{{- end }}
{{- else }}
- webhook_secret_key
- service_verify_key
- webhook_dispatcher_database_password
{{- if $sasl }}
- kafka_webhook_dispatcher_password
{{- end }}
{{- end }}
{{- end -}}

{{/* An app's DATABASE_URL: its own URL, with sslmode=verify-full and the CA when one is given. */}}
{{- define "tailsync.databaseUrl" -}}
{{- $root := index . 0 -}}
{{- $app := index . 1 -}}
{{- $url := required (printf "postgresql.%s.url is required: the PostgreSQL URL of %s, without its password" $app.key $app.component) (index $root.Values.postgresql $app.key).url -}}
{{- if regexMatch "^postgres(ql)?://[^/@]*:[^/@]*@" $url -}}
{{- fail (printf "postgresql.%s.url carries a password: give it in the Secret's %s_database_password instead" $app.key ($app.component | replace "-" "_")) -}}
{{- end -}}
{{- if $root.Values.postgresql.tls.caSecret -}}
{{- printf "%s%ssslmode=verify-full&sslrootcert=/etc/tailsync/postgres-ca/%s" $url (ternary "&" "?" (contains "?" $url)) $root.Values.postgresql.tls.caKey -}}
{{- else -}}
{{- $url -}}
{{- end -}}
{{- end -}}

{{/* Settings the values' env maps may not carry: secrets go through the Secret, never an env value. */}}
{{- define "tailsync.checkedEnv" -}}
{{- range $name, $value := . }}
{{- if regexMatch "(PASSWORD|SECRET|TOKEN|_KEY|CONNECTION_STRING)$" $name }}
{{- fail (printf "env.%s looks like a secret: secrets come from the Secret (secrets.*), never from an environment value" $name) }}
{{- end }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* An app's environment: only names and paths, every secret a file under /run/secrets. */}}
{{- define "tailsync.env" -}}
{{- $root := index . 0 -}}
{{- $app := index . 1 -}}
{{- $values := index $root.Values $app.key -}}
# Every listener on the pod's interfaces: the kubelet's probes and the peers reach the pod's IP.
- name: HOST
  value: 0.0.0.0
- name: INSTANCE_ID
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
- name: DATABASE_URL
  value: {{ include "tailsync.databaseUrl" (list $root $app) | quote }}
- name: DATABASE_PASSWORD_FILE
  value: /run/secrets/{{ $app.component | replace "-" "_" }}_database_password
{{- with $root.Values.tracing.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ $root.Values.tracing.sampler | quote }}
{{- end }}
{{- if eq $app.key "gateway" }}
- name: PORT
  value: {{ $app.apiPort | quote }}
- name: MANAGEMENT_PORT
  value: {{ $app.managementPort | quote }}
- name: PUBLIC_BASE_URL
  value: {{ $values.publicBaseUrl | quote }}
{{- with $values.trustProxy }}
- name: TRUST_PROXY
  value: {{ . | quote }}
{{- end }}
- name: ADMIN_TOKEN_FILE
  value: /run/secrets/admin_token
- name: JWT_SECRET_FILE
  value: /run/secrets/jwt_secret
- name: SERVICE_SIGNING_KEY_FILE
  value: /run/secrets/service_signing_key
# Every copy of each service: its headless Service resolves to each ready pod (round robin).
{{- range $key := list "tailSync" "webhookDispatcher" }}
{{- $service := include "tailsync.app" (list $root $key) | fromYaml }}
- name: {{ ternary "TAIL_SYNC_GRPC_TARGET" "WEBHOOK_DISPATCHER_GRPC_TARGET" (eq $key "tailSync") }}
  value: {{ printf "dns:///%s.%s.svc.%s:%v" (include "tailsync.name" (list $root $service)) $root.Release.Namespace $root.Values.clusterDomain $service.grpcPort | quote }}
{{- end }}
{{- else }}
{{- $prefix := ternary "TAIL_SYNC" "WEBHOOK_DISPATCHER" (eq $app.key "tailSync") }}
- name: {{ $prefix }}_HTTP_PORT
  value: {{ $app.managementPort | quote }}
- name: {{ $prefix }}_GRPC_PORT
  value: {{ $app.grpcPort | quote }}
- name: SERVICE_VERIFY_KEY_FILE
  value: /run/secrets/service_verify_key
- name: KAFKA_BROKERS
  value: {{ required "kafka.brokers is required: the Kafka bootstrap servers, host:port[,host:port…]" $root.Values.kafka.brokers | quote }}
{{- if $root.Values.kafka.tls.enabled }}
- name: KAFKA_SSL
  value: "true"
{{- if $root.Values.kafka.tls.caSecret }}
- name: KAFKA_SSL_CA_FILE
  value: /etc/tailsync/kafka-ca/{{ $root.Values.kafka.tls.caKey }}
{{- end }}
{{- end }}
{{- with $root.Values.kafka.sasl.mechanism }}
- name: KAFKA_SASL_MECHANISM
  value: {{ . | quote }}
- name: KAFKA_SASL_USERNAME
  value: {{ ternary $root.Values.kafka.sasl.tailSyncUsername $root.Values.kafka.sasl.webhookDispatcherUsername (eq $app.key "tailSync") | quote }}
- name: KAFKA_SASL_PASSWORD_FILE
  value: /run/secrets/kafka_{{ $app.component | replace "-" "_" }}_password
{{- end }}
{{- if eq $app.key "tailSync" }}
- name: EVENT_STORE
  value: {{ $values.eventStore | quote }}
{{- if eq $values.eventStore "esdb" }}
- name: EVENTSTORE_CONNECTION_STRING_FILE
  value: /run/secrets/eventstore_connection_string
{{- end }}
{{- else }}
- name: WEBHOOK_SECRET_KEY_FILE
  value: /run/secrets/webhook_secret_key
{{- end }}
{{- end }}
{{- if $root.Values.grpcTls.enabled }}
- name: GRPC_TLS_CA_FILE
  value: /etc/tailsync/grpc-tls/ca.crt
- name: GRPC_TLS_CERT_FILE
  value: /etc/tailsync/grpc-tls/tls.crt
- name: GRPC_TLS_KEY_FILE
  value: /etc/tailsync/grpc-tls/tls.key
{{- end }}
{{- include "tailsync.checkedEnv" (merge (dict) $values.env $root.Values.env) }}
{{- end -}}
