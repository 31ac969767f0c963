{{/* Chart name. */}}
{{- define "igw.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-scoped base name; app resources are "<fullname>-<app>". */}}
{{- define "igw.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one app's resources. Usage: include "igw.appName" (dict "root" $ "app" $name) */}}
{{- define "igw.appName" -}}
{{- printf "%s-%s" (include "igw.fullname" .root) .app | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "igw.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "igw.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: intent-gateway
{{- end -}}

{{/* Usage: include "igw.selectorLabels" (dict "root" $ "app" $name) */}}
{{- define "igw.selectorLabels" -}}
app.kubernetes.io/name: {{ include "igw.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .app }}
{{- end -}}

{{/* Usage: include "igw.appLabels" (dict "root" $ "app" $name) */}}
{{- define "igw.appLabels" -}}
{{ include "igw.labels" .root }}
app.kubernetes.io/component: {{ .app }}
{{- end -}}

{{- define "igw.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The Secret every pod reads (by reference only: the chart never creates one). */}}
{{- define "igw.secretName" -}}
{{- required "secrets.existingSecret is required: the name of a Secret you manage (see deploy/README.md)" .Values.secrets.existingSecret -}}
{{- end -}}

{{/* The pod securityContext, container securityContext and /tmp scratch volume every pod uses. */}}
{{- define "igw.podSecurity" -}}
automountServiceAccountToken: false
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- end -}}

{{/* Prometheus scrape annotations. Usage: include "igw.metricsAnnotations" (dict "root" $ "port" $app.port) */}}
{{- define "igw.metricsAnnotations" -}}
{{- if .root.Values.metrics.annotations }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: {{ .root.Values.metrics.path | quote }}
{{- end }}
{{- end -}}

{{/* Selector of every pod of this release. */}}
{{- define "igw.releaseSelector" -}}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: intent-gateway
{{- end -}}

{{/* Names of the enabled apps whose serviceUrls point at `app`. Usage: include "igw.callers" (dict "root" $ "app" $name) */}}
{{- define "igw.callers" -}}
{{- $callers := list -}}
{{- range $caller, $c := .root.Values.apps -}}
{{- if $c.enabled -}}
{{- range $key, $target := ($c.serviceUrls | default (dict)) -}}
{{- if eq $target $.app -}}
{{- $callers = append $callers $caller -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $callers | uniq | sortAlpha | join "," -}}
{{- end -}}
