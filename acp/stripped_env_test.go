package acp_test

import (
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestStrippedEnvironment: avante.nvim starts an agent with PATH and its
// env table only. Without HOME agentls still reads the user's config.yaml
// where the environment it has names it; when there is none, it never
// falls back to the built-in hosted endpoint with the key it was given: it
// fails closed, saying why and what to pass.
func TestStrippedEnvironment(t *testing.T) {
	srv := fakeopenai.New(fakeopenai.Options{})
	defer srv.Close()
	tests := []struct {
		name       string
		userConfig string // in XDG_CONFIG_HOME, when set
		xdg        bool   // pass XDG_CONFIG_HOME (an empty folder without userConfig)
		env        map[string]string
		wantErr    string // "" : the turn reaches the local endpoint
	}{
		{name: "no HOME, no config: refused", xdg: true, env: map[string]string{"OPENAI_API_KEY": "sk-real"},
			wantErr: "HOME is not set"},
		{name: "no HOME, no XDG, no config: refused", env: map[string]string{"OPENAI_API_KEY": "sk-real"},
			wantErr: "HOME is not set"},
		{name: "no HOME, config found through XDG_CONFIG_HOME", xdg: true,
			userConfig: "model:\n  base_url: " + srv.URL + "\n  name: m\n  api_key_env: \"\"\n"},
		{name: "no HOME, endpoint named by the env", env: map[string]string{"OPENAI_BASE_URL": srv.URL}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			env := map[string]string{"HOME": "", "XDG_CONFIG_HOME": "", "PATH": "/usr/bin:/bin"}
			if tt.xdg {
				env["XDG_CONFIG_HOME"] = filepath.Join(root, "xdg")
			} else if u, err := user.Current(); err == nil {
				// Without XDG_CONFIG_HOME the password database's home is looked in.
				if _, err := os.Stat(filepath.Join(u.HomeDir, ".config", "agentls", "config.yaml")); err == nil {
					t.Skip("this machine's user has a config.yaml of their own")
				}
			}
			for k, v := range tt.env {
				env[k] = v
			}
			before := len(srv.Requests())
			r := newRig(t, setup{realProvider: true, userConfig: tt.userConfig, xdgConfig: filepath.Join(root, "xdg"), env: env})
			sid := r.newSession().SessionId
			stop, err := r.prompt(sid, "hello")
			if tt.wantErr == "" {
				if err != nil || stop != sdk.StopReasonEndTurn {
					t.Fatalf("prompt = %s, %v", stop, err)
				}
				if len(srv.Requests()) == before {
					t.Fatal("the local endpoint was not asked")
				}
				return
			}
			var re *sdk.RequestError
			if !errors.As(err, &re) || !strings.Contains(re.Message, tt.wantErr) || !strings.Contains(re.Message, "pass HOME and XDG_CONFIG_HOME") {
				t.Fatalf("prompt = %s, %v; want the refusal %q", stop, err, tt.wantErr)
			}
		})
	}
}
