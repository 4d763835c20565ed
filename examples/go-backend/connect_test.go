package main

import (
	"strings"
	"testing"
)

// The TypeScript processes' refusals (src/temporal/plaintext.ts): plaintext to a Temporal that is not
// on this machine unless TEMPORAL_TLS=false says so, and the codec server's bearer token never over
// http:// to another machine.

func settingsWith(t *testing.T, vars map[string]string) (settings, error) {
	t.Helper()
	for _, name := range []string{
		"TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "TEMPORAL_TASK_QUEUE", "TEMPORAL_TLS", "TEMPORAL_TLS_SERVER_NAME",
		"TEMPORAL_TLS_SERVER_CA_CERT_PATH", "TEMPORAL_TLS_CLIENT_CERT_PATH", "TEMPORAL_TLS_CLIENT_KEY_PATH",
		"CODEC_SERVER_URL", "SANDBOX_URL", "PAYFLOWS_SCHEMAS_DIR", "TEMPORAL_API_KEY",
	} {
		t.Setenv(name, "")
	}
	t.Setenv("CODEC_SERVER_TOKEN", "tok-0123456789abcdef")
	for name, value := range vars {
		t.Setenv(name, value)
	}
	return loadSettings()
}

func TestPlaintextToTemporalOffThisMachineIsRefused(t *testing.T) {
	for _, address := range []string{"temporal.example.test:7233", "10.0.0.5:7233", "temporal.example.test", "[2001:db8::1]:7233", "127.0.0.1.example.test:7233",
		// Read strictly, as src/temporal/plaintext.ts does: what is not plainly a loopback host and port is not loopback.
		"localhost:7233@evil.example.test", "127.0.0.1:99999", "[127.0.0.1]:7233", "::ffff:127.0.0.1", "localhost:", "localhost:7233/x"} {
		_, err := settingsWith(t, map[string]string{"TEMPORAL_ADDRESS": address})
		if err == nil {
			t.Fatalf("%s: plaintext was taken", address)
		}
		for _, want := range []string{"TEMPORAL_ADDRESS", "TEMPORAL_TLS=true", "TEMPORAL_TLS=false"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the error does not say %q: %v", address, want, err)
			}
		}
		if strings.Contains(err.Error(), address) {
			t.Errorf("the error names the variable, not its value: %v", err)
		}
	}
}

func TestPlaintextToTemporalIsTakenOnLoopbackOrWhenAskedFor(t *testing.T) {
	for _, address := range []string{"", "127.0.0.1:7233", "127.9.8.7:7233", "localhost:7233", "LOCALHOST", "[::1]:7233", "::1", "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]:7233"} {
		s, err := settingsWith(t, map[string]string{"TEMPORAL_ADDRESS": address})
		if err != nil {
			t.Errorf("%q: %v", address, err)
		} else if s.tls != nil {
			t.Errorf("%q: TLS where none was asked for", address)
		}
	}
	if s, err := settingsWith(t, map[string]string{"TEMPORAL_ADDRESS": "temporal.internal:7233", "TEMPORAL_TLS": "false"}); err != nil || s.tls != nil {
		t.Errorf("TEMPORAL_TLS=false asks for plaintext: %v", err)
	}
	if s, err := settingsWith(t, map[string]string{"TEMPORAL_ADDRESS": "temporal.example.test:7233", "TEMPORAL_TLS": "true"}); err != nil || s.tls == nil {
		t.Errorf("TEMPORAL_TLS=true: TLS, no refusal: %v", err)
	}
}

func TestTheCodecTokenNeverGoesOverHTTPToAnotherMachine(t *testing.T) {
	for _, url := range []string{"http://codec.example.test:4030", "http://10.0.0.5:4030/", "HTTP://codec.example.test", "http://127.0.0.1.example.test:4030", "ftp://127.0.0.1:4030", "codec.example.test:4030", "http://localhost:4030@codec.example.test/"} {
		// TEMPORAL_TLS=false is for Temporal's connection only: the token is another credential.
		_, err := settingsWith(t, map[string]string{"CODEC_SERVER_URL": url, "TEMPORAL_TLS": "false"})
		if err == nil {
			t.Fatalf("%s: the token would go in clear", url)
		}
		for _, want := range []string{"CODEC_SERVER_URL", "CODEC_SERVER_TOKEN", "https://"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the error does not say %q: %v", url, want, err)
			}
		}
	}
	for _, url := range []string{"", "http://127.0.0.1:4030", "http://localhost:4030/", "http://[::1]:4030", "https://codec.example.test", "https://10.0.0.5:4030"} {
		if _, err := settingsWith(t, map[string]string{"CODEC_SERVER_URL": url}); err != nil {
			t.Errorf("%q: %v", url, err)
		}
	}
}

func TestAnAPIKeyImpliesTLSAndIsNeverSentInClear(t *testing.T) {
	const key = "token-0123456789"
	s, err := settingsWith(t, map[string]string{"TEMPORAL_ADDRESS": "127.0.0.1:7233", "TEMPORAL_API_KEY": key})
	if err != nil || s.tls == nil || credentials(s) == nil {
		t.Errorf("an API key on loopback: TLS and credentials, no refusal: %v", err)
	}
	_, err = settingsWith(t, map[string]string{"TEMPORAL_ADDRESS": "127.0.0.1:7233", "TEMPORAL_API_KEY": key, "TEMPORAL_TLS": "false"})
	if err == nil || !strings.Contains(err.Error(), "TEMPORAL_API_KEY") || !strings.Contains(err.Error(), "TEMPORAL_TLS=false") {
		t.Errorf("an API key with TLS said off: want a refusal naming both, got %v", err)
	} else if strings.Contains(err.Error(), key) {
		t.Errorf("the refusal shows the key: %v", err)
	}
	if s, _ := settingsWith(t, map[string]string{"TEMPORAL_ADDRESS": "127.0.0.1:7233"}); credentials(s) != nil {
		t.Error("credentials without an API key")
	}
}
