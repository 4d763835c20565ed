{{/*
The keys: each entry of `secrets` (and temporal.apiKey) is the variable it fills, whether a render
without it fails, and which processes get it. Read with fromYaml.
*/}}
{{- define "payflows.secretTable" -}}
payloadKey: { variable: PAYLOAD_ENCRYPTION_KEY, required: true, processes: [worker, ingress, codecServer] }
payloadPreviousKeys: { variable: PAYLOAD_PREVIOUS_KEYS, required: false, processes: [worker, ingress, codecServer] }
claimKey: { variable: CLAIM_ENCRYPTION_KEY, required: true, processes: [worker, codecServer] }
claimPreviousKeys: { variable: CLAIM_PREVIOUS_KEYS, required: false, processes: [worker, codecServer] }
providerApiKey: { variable: PROVIDER_API_KEY, required: true, processes: [worker] }
providerSecretKey: { variable: PROVIDER_SECRET_KEY, required: true, processes: [worker, ingress] }
providerCallbackSecrets: { variable: PROVIDER_CALLBACK_SECRETS, required: false, processes: [ingress] }
codecServerToken: { variable: CODEC_SERVER_TOKEN, required: true, processes: [codecServer] }
awsAccessKeyId: { variable: AWS_ACCESS_KEY_ID, required: false, processes: [worker, codecServer] }
awsSecretAccessKey: { variable: AWS_SECRET_ACCESS_KEY, required: false, processes: [worker, codecServer] }
{{- end -}}

{{/* Variables that hold a secret, by the value that gives them from a Secret instead ("" where only valueFrom does). */}}
{{- define "payflows.secretVariables" -}}
{{- range $entry, $row := include "payflows.secretTable" . | fromYaml }}
{{ $row.variable }}: secrets.{{ $entry }}
{{- end }}
TEMPORAL_API_KEY: temporal.apiKey
TEMPORAL_OAUTH_CLIENT_SECRET: ""
TEMPORAL_TLS_CLIENT_KEY_DATA: temporal.tls.clientCertSecret
{{- end -}}

{{/*
A reference to a key in a Secret, checked: (list <value> "secrets.payloadKey" "PAYLOAD_ENCRYPTION_KEY").
A string is a key written inline, and fails the render.
*/}}
{{- define "payflows.checkSecretRef" -}}
{{- $ref := index . 0 -}}
{{- $where := index . 1 -}}
{{- $variable := index . 2 -}}
{{- if kindIs "invalid" $ref -}}
{{- fail (printf "%s is required: a reference {name: <Secret>, key: <key in it>} to the Secret that holds %s" $where $variable) -}}
{{- end -}}
{{- if not (kindIs "map" $ref) -}}
{{- fail (printf "%s is given inline: %s must come from a Secret. Put the key in a Secret (kubectl create secret generic …) and set %s to a reference {name: <Secret>, key: <key in it>}" $where $variable $where) -}}
{{- end -}}
{{- if or (not $ref.name) (not $ref.key) -}}
{{- fail (printf "%s needs both name and key: the Secret and the key in it that holds %s" $where $variable) -}}
{{- end -}}
{{- end -}}

{{/* The secret variables of one process, each from its Secret: (list $ "worker"). */}}
{{- define "payflows.secretEnv" -}}
{{- $ := index . 0 -}}
{{- $process := index . 1 -}}
{{- range $entry, $row := include "payflows.secretTable" $ | fromYaml }}
{{- $ref := index $.Values.secrets $entry }}
{{- if and (has $process $row.processes) (or $ref $row.required) }}
{{- include "payflows.checkSecretRef" (list $ref (printf "secrets.%s" $entry) $row.variable) }}
- name: {{ $row.variable }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name | quote }}
      key: {{ $ref.key | quote }}
{{- end }}
{{- end }}
{{- end -}}
