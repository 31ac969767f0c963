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

{{- define "igw.secretName" -}}
{{- default (printf "%s-secrets" (include "igw.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}
