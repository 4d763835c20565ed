{{/* A memory limit in MiB, from the forms values.schema.json allows (NNNMi, NNGi). */}}
{{- define "payflows.mebibytes" -}}
{{- if hasSuffix "Gi" . -}}
{{- mul (trimSuffix "Gi" . | atoi) 1024 -}}
{{- else -}}
{{- trimSuffix "Mi" . | atoi -}}
{{- end -}}
{{- end -}}

{{/*
NODE_OPTIONS: a V8 heap of 5/8 of the container's memory limit, as the image's 640 MiB of 1 GiB,
so that what is not heap fits beside it: the limit, e.g. "2Gi".
*/}}
{{- define "payflows.heapEnv" -}}
- name: NODE_OPTIONS
  value: {{ printf "--max-old-space-size=%d" (div (mul (include "payflows.mebibytes" .) 5) 8) | quote }}
{{- end -}}
