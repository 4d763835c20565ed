{{/* Names and labels of the chart's objects. */}}

{{/* The release's prefix: the release name if it already says payflows, else <release>-payflows. */}}
{{- define "payflows.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* A component's name: (list $ "worker"). */}}
{{- define "payflows.componentName" -}}
{{- $ := index . 0 -}}
{{- printf "%s-%s" (include "payflows.fullname" $) (index . 1) -}}
{{- end -}}

{{/* The labels that pick a component's pods (Deployment, Service and PodDisruptionBudget): (list $ "worker"). */}}
{{- define "payflows.selectorLabels" -}}
{{- $ := index . 0 -}}
app.kubernetes.io/name: {{ $.Chart.Name }}
app.kubernetes.io/instance: {{ $.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* Every label of a component's objects: (list $ "worker"). */}}
{{- define "payflows.labels" -}}
{{- $ := index . 0 -}}
{{ include "payflows.selectorLabels" . }}
app.kubernetes.io/version: {{ $.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" $.Chart.Name $.Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The image's tag: image.tag, else the chart's appVersion. */}}
{{- define "payflows.imageTag" -}}
{{- .Values.image.tag | default .Chart.AppVersion -}}
{{- end -}}

{{- define "payflows.image" -}}
{{- printf "%s:%s" .Values.image.repository (include "payflows.imageTag" .) -}}
{{- end -}}
