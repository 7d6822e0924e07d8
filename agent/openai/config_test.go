package openai

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm/kit"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
		check   func(t *testing.T, c Config)
	}{{
		name:    "empty model",
		cfg:     Config{BaseURL: "http://127.0.0.1:1/v1"},
		wantErr: "model name is empty",
	}, {
		name:    "unparsable base URL",
		cfg:     Config{BaseURL: "http://[::1", Model: "m"},
		wantErr: `base URL "http://[::1"`,
	}, {
		name:    "base URL without scheme",
		cfg:     Config{BaseURL: "localhost:11434/v1", Model: "m"},
		wantErr: "want http(s)://host[:port]/path",
	}, {
		name:    "base URL with another scheme",
		cfg:     Config{BaseURL: "ftp://example.com/v1", Model: "m"},
		wantErr: "want http(s)://host[:port]/path",
	}, {
		name: "defaults",
		cfg:  Config{Model: "gpt-4.1"},
		check: func(t *testing.T, c Config) {
			if c.BaseURL != DefaultBaseURL || c.MaxRetries != kit.DefaultMaxRetries ||
				c.InitialBackoff != kit.DefaultInitialBackoff || c.MaxBackoff != kit.DefaultMaxBackoff ||
				c.HTTPClient == nil || c.Logger == nil {
				t.Errorf("defaults not applied: %+v", c)
			}
		},
	}, {
		name: "explicit values kept, negative retries mean none",
		cfg: Config{BaseURL: "http://localhost:11434/v1", Model: "llama3", MaxRetries: -1,
			InitialBackoff: time.Second, MaxBackoff: 10 * time.Millisecond, HTTPClient: http.DefaultClient},
		check: func(t *testing.T, c Config) {
			if c.BaseURL != "http://localhost:11434/v1" || c.MaxRetries != 0 || c.HTTPClient != http.DefaultClient {
				t.Errorf("config changed: %+v", c)
			}
			if c.MaxBackoff != time.Second {
				t.Errorf("MaxBackoff = %v, want raised to InitialBackoff", c.MaxBackoff)
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			tt.check(t, p.cfg)
		})
	}
}
