{{/* What every pod of the chart shares: a non-root, read-only container and its volumes. */}}

{{/* The image's user (node, 1000) and its /data, writable by it. */}}
{{- define "payflows.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "payflows.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}

{{/* Volumes: /tmp, Temporal's TLS Secrets, and the claim store's claim (with claims: (list $ true)). */}}
{{- define "payflows.volumes" -}}
{{- $ := index . 0 -}}
{{- $claims := index . 1 -}}
- name: tmp
  emptyDir: {}
{{- with $.Values.temporal.tls.clientCertSecret }}
- name: temporal-client-tls
  secret:
    secretName: {{ . | quote }}
{{- end }}
{{- with $.Values.temporal.tls.serverCaSecret }}
- name: temporal-server-ca
  secret:
    secretName: {{ . | quote }}
{{- end }}
{{- if and $claims $.Values.claims.persistentVolumeClaim }}
- name: claims
  persistentVolumeClaim:
    claimName: {{ $.Values.claims.persistentVolumeClaim | quote }}
{{- end }}
{{- end -}}

{{- define "payflows.volumeMounts" -}}
{{- $ := index . 0 -}}
{{- $claims := index . 1 -}}
- name: tmp
  mountPath: /tmp
{{- if $.Values.temporal.tls.clientCertSecret }}
- name: temporal-client-tls
  mountPath: {{ include "payflows.tlsDir" $ }}/client
  readOnly: true
{{- end }}
{{- if $.Values.temporal.tls.serverCaSecret }}
- name: temporal-server-ca
  mountPath: {{ include "payflows.tlsDir" $ }}/server-ca
  readOnly: true
{{- end }}
{{- if and $claims $.Values.claims.persistentVolumeClaim }}
# The image's CLAIM_STORE_DIR.
- name: claims
  mountPath: /data/claims
{{- end }}
{{- end -}}

{{/* Scheduling and pull secrets of a component's pods: (list $ "worker"). */}}
{{- define "payflows.scheduling" -}}
{{- $ := index . 0 -}}
{{- $values := index $.Values (index . 1) -}}
{{- with $.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
