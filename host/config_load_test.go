package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
)

// TestConfigFailsClosed: whichever layer fails to load (the user's file,
// the workspace's, --config, initializationOptions, a file that cannot be
// read), no model is built from the remaining layers (the factory is never
// called: no built-in endpoint stands in); the host's model refuses with
// the file, line and fix. Fixing the file and reloading builds the model.
func TestConfigFailsClosed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		user        string
		workspace   string
		configFile  string
		initOptions map[string]any
		unreadable  bool // the user's file exists but cannot be read
		want        string
	}{
		{name: "user file schema", user: "model:\n  name: m\n  base_url: 7\n", want: "config.yaml:3: model.base_url: "},
		{name: "user file syntax", user: "model: [\n", want: "config.yaml:"},
		{name: "user file unknown key", user: "modle:\n  name: m\n", want: `config.yaml:1: unknown key "modle" (did you mean "model"?)`},
		{name: "workspace file", workspace: "edits: sometimes\n", want: ".agentls.yaml:1: edits: must be one of auto, client, disk"},
		{name: "--config file", configFile: "max_turn_requests: -1\n", want: "flag.yaml:1: max_turn_requests: "},
		{name: "initializationOptions", initOptions: map[string]any{"model": map[string]any{"api_key_env": "1BAD"}},
			want: "initializationOptions: model.api_key_env: must match"},
		{name: "missing --config file", configFile: "-", want: "flag.yaml: does not exist (named by --config)"},
		{name: "unreadable user file", unreadable: true, want: "config.yaml: cannot be read: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			switch {
			case tc.unreadable:
				// A folder where the file should be: it exists and cannot
				// be read as a file, for root too.
				if err := os.MkdirAll(e.userFile, 0o755); err != nil {
					t.Fatal(err)
				}
			case tc.user != "":
				writeFile(t, e.userFile, tc.user)
			}
			if tc.workspace != "" {
				writeFile(t, filepath.Join(e.workspace, ".agentls.yaml"), tc.workspace)
			}
			m := &models{}
			opts := e.options(m)
			opts.TrustStore, opts.InitOptions = config.NewTrustStore(e.stateDir), tc.initOptions
			if tc.configFile != "" {
				opts.ConfigFile = filepath.Join(t.TempDir(), "flag.yaml")
				if tc.configFile != "-" {
					writeFile(t, opts.ConfigFile, tc.configFile)
				}
			}
			h, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if got := m.names(); len(got) != 0 {
				t.Fatalf("models built for %q from the other layers, want none", got)
			}
			var le *config.LoadError
			if err := h.BlockedBy(); !errors.As(err, &le) || !strings.Contains(err.Error(), tc.want) ||
				!strings.HasSuffix(err.Error(), "agentls sends no request to the model until it loads") {
				t.Fatalf("BlockedBy = %v, want a LoadError containing %q", err, tc.want)
			}
			check := h.Manager().CheckModel(context.Background())
			if check.OK || !strings.Contains(check.Message, tc.want) {
				t.Fatalf("CheckModel = %+v", check)
			}
			if _, err := h.Manager().Provider().Complete(context.Background(), llm.Request{}, func(llm.Event) {}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Complete = %v", err)
			}
		})
	}
}

// TestConfigFixedThenReloaded: a reload after the file was fixed builds the
// model and lifts the block; breaking it again blocks again.
func TestConfigFixedThenReloaded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeFile(t, e.userFile, "model:\n  name: m\n  api_key_env: 1\n")
	m := &models{}
	h, err := New(e.options(m))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.BlockedBy() == nil || len(m.names()) != 0 {
		t.Fatalf("blocked %v, models %q", h.BlockedBy(), m.names())
	}
	writeFile(t, e.userFile, "model:\n  name: m\n  api_key_env: \"\"\n")
	cfg, _ := h.Reload()
	if !h.Reconfigure(cfg) || h.BlockedBy() != nil || h.Config().Model.APIKeyEnv != "" {
		t.Fatalf("after the fix: blocked %v, api_key_env %q", h.BlockedBy(), h.Config().Model.APIKeyEnv)
	}
	if got := m.names(); len(got) != 1 || got[0] != "m" {
		t.Fatalf("models built %q, want one for m", got)
	}
	writeFile(t, e.userFile, "model:\n  name: m\n  api_key_env: 1\n")
	cfg, _ = h.Reload()
	if !h.Reconfigure(cfg) || h.BlockedBy() == nil {
		t.Fatal("breaking the file again did not block the model")
	}
	if _, ok := h.Manager().Provider().(BrokenProvider); !ok {
		t.Fatalf("provider %T after the file broke again, want BrokenProvider", h.Manager().Provider())
	}
}
