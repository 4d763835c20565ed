{{/* What a render refuses, each failure naming the value and what to set. */}}

{{/* The values only a deployment knows, each required with what to write. */}}
{{- define "payflows.checkRequired" -}}
{{- $_ := required "temporal.address is required: the Temporal frontend's host:port (temporalio/helm-charts: <release>-temporal-frontend:7233)" .Values.temporal.address -}}
{{- $_ = required "provider.baseUrl is required: the real provider's base address (PROVIDER_BASE_URL)" .Values.provider.baseUrl -}}
{{- $_ = required "provider.accountId is required: the merchant account of the API key, AC_… (PROVIDER_ACCOUNT_ID)" .Values.provider.accountId -}}
{{- $_ = required "ingress.publicUrl is required: the https address at which the provider reaches the ingress (INGRESS_PUBLIC_URL)" .Values.ingress.publicUrl -}}
{{- if and .Values.temporal.apiKey (not .Values.temporal.tls.enabled) -}}
{{- fail "temporal.apiKey is set but temporal.tls.enabled is false: the key would travel in clear; set temporal.tls.enabled: true" -}}
{{- end -}}
{{- if and .Values.claims.storeUrl .Values.claims.persistentVolumeClaim -}}
{{- fail "claims.storeUrl and claims.persistentVolumeClaim are both set: the claim store is one of the two; set the other to \"\"" -}}
{{- end -}}
{{- if not (or .Values.claims.storeUrl .Values.claims.persistentVolumeClaim) -}}
{{- fail "claims.storeUrl or claims.persistentVolumeClaim is required: the workers and the codec server share the claim store (an s3:// address, or a ReadWriteMany claim)" -}}
{{- end -}}
{{- end -}}

{{/*
Extra variables given in values: (list $ <list> "worker.env"). A secret variable with a literal
value is a key written inline and fails the render; the chart's own secret values say where it goes.
*/}}
{{- define "payflows.checkEnv" -}}
{{- $ := index . 0 -}}
{{- $where := index . 2 -}}
{{- $secret := include "payflows.secretVariables" $ | fromYaml -}}
{{- range $i, $var := index . 1 -}}
{{- if not (and (kindIs "map" $var) $var.name) -}}
{{- fail (printf "%s[%d] is not a variable: write {name: …, value: …} or {name: …, valueFrom: …}" $where $i) -}}
{{- end -}}
{{- if and (hasKey $secret $var.name) (hasKey $var "value") -}}
{{- $instead := "Give it valueFrom.secretKeyRef instead" -}}
{{- with get $secret $var.name -}}
{{- $instead = printf "Set %s to a reference {name: <Secret>, key: <key in it>} instead, or give it valueFrom.secretKeyRef" . -}}
{{- end -}}
{{- fail (printf "%s[%d] gives %s inline: a key must come from a Secret. %s" $where $i $var.name $instead) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The extra variables of one process, checked: the common `env`, then its own: (list $ "worker"). */}}
{{- define "payflows.extraEnv" -}}
{{- $ := index . 0 -}}
{{- $process := index . 1 -}}
{{- $own := (index $.Values $process).env | default list -}}
{{- include "payflows.checkEnv" (list $ ($.Values.env | default list) "env") -}}
{{- include "payflows.checkEnv" (list $ $own (printf "%s.env" $process)) -}}
{{- with concat ($.Values.env | default list) $own }}
{{ toYaml . }}
{{- end }}
{{- end -}}
