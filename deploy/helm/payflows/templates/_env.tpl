{{/* The plain settings every process shares (docs/configuration.md); keys come from _secrets.tpl. */}}

{{- define "payflows.tlsDir" -}}/etc/payflows/temporal-tls{{- end -}}

{{/* Where Temporal is and how the connection is secured. */}}
{{- define "payflows.temporalEnv" -}}
{{- $tls := .Values.temporal.tls -}}
- name: TEMPORAL_ADDRESS
  value: {{ .Values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ .Values.temporal.namespace | quote }}
- name: TEMPORAL_TLS
  value: {{ ternary "true" "false" (eq (toString $tls.enabled) "true") | quote }}
{{- with $tls.serverName }}
- name: TEMPORAL_TLS_SERVER_NAME
  value: {{ . | quote }}
{{- end }}
{{- if $tls.clientCertSecret }}
- name: TEMPORAL_TLS_CLIENT_CERT_PATH
  value: {{ include "payflows.tlsDir" . }}/client/tls.crt
- name: TEMPORAL_TLS_CLIENT_KEY_PATH
  value: {{ include "payflows.tlsDir" . }}/client/tls.key
{{- end }}
{{- if $tls.serverCaSecret }}
- name: TEMPORAL_TLS_SERVER_CA_CERT_PATH
  value: {{ include "payflows.tlsDir" . }}/server-ca/ca.crt
{{- end }}
{{- with .Values.temporal.apiKey }}
{{- include "payflows.checkSecretRef" (list . "temporal.apiKey" "TEMPORAL_API_KEY") }}
- name: TEMPORAL_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .name | quote }}
      key: {{ .key | quote }}
{{- end }}
{{- end -}}

{{/* The provider's address and account, and where it sends callbacks. */}}
{{- define "payflows.providerEnv" -}}
- name: PROVIDER_BASE_URL
  value: {{ .Values.provider.baseUrl | quote }}
- name: PROVIDER_ACCOUNT_ID
  value: {{ .Values.provider.accountId | quote }}
- name: INGRESS_PUBLIC_URL
  value: {{ .Values.ingress.publicUrl | quote }}
{{- end -}}

{{/* The claim store: S3, or the shared claim mounted at the image's CLAIM_STORE_DIR. */}}
{{- define "payflows.claimsEnv" -}}
{{- with .Values.claims -}}
{{- if .storeUrl }}
- name: CLAIM_STORE_URL
  value: {{ .storeUrl | quote }}
{{- with .awsRegion }}
- name: AWS_REGION
  value: {{ . | quote }}
{{- end }}
{{- with .endpointUrl }}
- name: AWS_ENDPOINT_URL_S3
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- end -}}
