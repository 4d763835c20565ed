package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
)

// The client a Go backend of a payflows deployment uses: its server and namespace, every payload
// encrypted and decrypted by the deployment's codec server (docs/payload-format.md, "The codec
// server as a remote codec"), and failures' messages read back from their encoded attributes, as
// the TypeScript workers write them (src/temporal/failure-converter.ts).

type settings struct {
	address, namespace, taskQueue string
	codecURL, codecToken          string
	// A token for a Temporal server that authorizes (the namespace's writer role), sent as
	// `Authorization: Bearer …` over TLS only.
	apiKey     string
	sandboxURL string
	schemasDir string
	tls        *tls.Config
}

func env(name, fallback string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return fallback
}

func loadSettings() (settings, error) {
	s := settings{
		address:    env("TEMPORAL_ADDRESS", "127.0.0.1:7233"),
		namespace:  env("TEMPORAL_NAMESPACE", "default"),
		taskQueue:  env("TEMPORAL_TASK_QUEUE", "payflows"),
		codecURL:   strings.TrimSuffix(env("CODEC_SERVER_URL", "http://127.0.0.1:4030"), "/"),
		codecToken: env("CODEC_SERVER_TOKEN", ""),
		sandboxURL: strings.TrimSuffix(env("SANDBOX_URL", "http://127.0.0.1:4010"), "/"),
		schemasDir: env("PAYFLOWS_SCHEMAS_DIR", "../../schemas/messages"),
		apiKey:     env("TEMPORAL_API_KEY", ""),
	}
	if s.codecToken == "" {
		return s, fmt.Errorf("CODEC_SERVER_TOKEN is unset: the codec server refuses every call without it (Authorization: Bearer <CODEC_SERVER_TOKEN>)")
	}
	var err error
	if s.tls, err = tlsConfig(); err != nil {
		return s, err
	}
	if s.apiKey != "" && s.tls == nil {
		return s, fmt.Errorf("TEMPORAL_API_KEY is set but TLS is off (TEMPORAL_TLS=false): the key would travel in clear. Remove TEMPORAL_TLS=false (an API key implies TLS), or the key")
	}
	if problem := plaintextProblem(s.address, s.tls, env("TEMPORAL_TLS", "") == "false"); problem != "" {
		return s, fmt.Errorf("%s", problem)
	}
	if problem := codecURLProblem(s.codecURL); problem != "" {
		return s, fmt.Errorf("%s", problem)
	}
	return s, nil
}

// Plaintext to Temporal carries every payload's metadata and the workflow ids: taken only where it
// cannot leave the machine (loopback) or where TEMPORAL_TLS=false asks for it by name, as the
// TypeScript processes do (src/temporal/plaintext.ts). The error names the variable, never its value.
func plaintextProblem(address string, conf *tls.Config, tlsSaidOff bool) string {
	if conf != nil || tlsSaidOff || isLoopback(address) {
		return ""
	}
	return "TEMPORAL_ADDRESS is not on this machine (localhost, ::1 or 127.x), and nothing says how to secure the connection: " +
		"set TEMPORAL_TLS=true (with TEMPORAL_TLS_SERVER_CA_CERT_PATH where its certificate is not publicly trusted), " +
		"or TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH; or TEMPORAL_TLS=false to connect in plaintext over a network you trust"
}

// The codec server's bearer token decrypts every payload of the deployment, and the remote codec
// sends payloads in clear: over http:// only to this machine. TEMPORAL_TLS=false does not cover it.
func codecURLProblem(raw string) string {
	u, err := url.Parse(raw)
	if err == nil && (u.Scheme == "https" || u.Scheme == "http" && isLoopback(u.Hostname())) {
		return ""
	}
	return "CODEC_SERVER_URL must be https://, or http:// to this machine (localhost, ::1 or 127.x): " +
		"CODEC_SERVER_TOKEN and every payload go with each call, and over http:// to another machine they would travel in clear; " +
		"put TLS in front of the codec server and give its https:// address"
}

// host:port, [v6]:port or a bare host on this machine's loopback, read strictly as
// src/temporal/plaintext.ts isLoopback reads it: a host of letters, digits, dots and hyphens (or a
// bracketed IPv6 address), then at most a port of digits. Anything else is not loopback: in
// localhost:7233@evil.example the connection would go to evil.example.
var hostAndPort = regexp.MustCompile(`^(?:\[([^\[\]]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$`)

func isLoopback(address string) bool {
	if ip := net.ParseIP(address); ip != nil && strings.Contains(address, ":") {
		return ip.Equal(net.IPv6loopback) && ip.To4() == nil
	}
	parts := hostAndPort.FindStringSubmatch(address)
	if parts == nil {
		return false
	}
	if port := parts[3]; port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return false
		}
	}
	if v6 := parts[1]; v6 != "" {
		ip := net.ParseIP(v6)
		return ip != nil && strings.Contains(v6, ":") && ip.Equal(net.IPv6loopback) && ip.To4() == nil
	}
	host := strings.ToLower(parts[2])
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.To4() != nil && strings.HasPrefix(host, "127.")
}

// TLS as the TypeScript processes configure it (TEMPORAL_TLS_*_PATH, docs/configuration.md):
// a CA for the server, a client certificate for mTLS, the server's name.
func tlsConfig() (*tls.Config, error) {
	ca := env("TEMPORAL_TLS_SERVER_CA_CERT_PATH", "")
	cert := env("TEMPORAL_TLS_CLIENT_CERT_PATH", "")
	key := env("TEMPORAL_TLS_CLIENT_KEY_PATH", "")
	// An API key implies TLS, unless TEMPORAL_TLS=false says otherwise (then loadSettings refuses the key).
	implied := env("TEMPORAL_API_KEY", "") != "" && env("TEMPORAL_TLS", "") != "false"
	if ca == "" && cert == "" && env("TEMPORAL_TLS", "") != "true" && !implied {
		return nil, nil
	}
	conf := &tls.Config{ServerName: env("TEMPORAL_TLS_SERVER_NAME", ""), MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_SERVER_CA_CERT_PATH: %w", err)
		}
		conf.RootCAs = x509.NewCertPool()
		if !conf.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TEMPORAL_TLS_SERVER_CA_CERT_PATH=%s holds no PEM certificate", ca)
		}
	}
	if cert != "" || key != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH: %w", err)
		}
		conf.Certificates = []tls.Certificate{pair}
	}
	return conf, nil
}

// The codec is the deployment's codec server: it holds the key, this program never does. The
// remote codec sends the namespace and the credential with every batch of payloads.
func dataConverter(s settings) converter.DataConverter {
	codec := converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{
		Endpoint: s.codecURL,
		Client:   http.Client{Timeout: 15 * time.Second},
		ModifyRequest: func(req *http.Request) error {
			req.Header.Set("X-Namespace", s.namespace)
			req.Header.Set("Authorization", "Bearer "+s.codecToken)
			return nil
		},
	})
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)
}

// The API key as the connection's bearer token, when one is set.
func credentials(s settings) client.Credentials {
	if s.apiKey == "" {
		return nil
	}
	return client.NewAPIKeyStaticCredentials(s.apiKey)
}

func connect(s settings) (client.Client, error) {
	dc := dataConverter(s)
	return client.Dial(client.Options{
		HostPort:      s.address,
		Namespace:     s.namespace,
		DataConverter: dc,
		// Messages and stack traces travel encrypted in encodedAttributes; this decodes them
		// (and would encode this program's own, were it to fail a workflow).
		FailureConverter: temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
			DataConverter:          dc,
			EncodeCommonAttributes: true,
		}),
		ConnectionOptions: client.ConnectionOptions{TLS: s.tls},
		Credentials:       credentials(s),
		// The SDK's own log to stderr, warnings and worse: stdout is the report.
		Logger: log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	})
}
