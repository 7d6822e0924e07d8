package acp_test

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent/scripted"
)

// TestBrokenConfigFailsClosed: on the ACP face a configuration layer that
// does not load (the workspace's .agentls.yaml, the user's config.yaml)
// stops every model request: session/new still works, each prompt fails
// with the file, line and fix, and the model is never asked.
func TestBrokenConfigFailsClosed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		files      map[string]string
		userConfig string
		want       string
	}{
		{"workspace file", map[string]string{".agentls.yaml": "model:\n  base_url: http://127.0.0.1:9/v1\nedits: sometimes\n"}, "",
			"ws/.agentls.yaml:3: edits: must be one of auto, client, disk — fix the file; agentls sends no request to the model until it loads"},
		{"user config", nil, "model:\n  name: [not, a, string]\n",
			"agentls/config.yaml:2: model.name: "},
		{"user config syntax", nil, "model:\n  name: x\n   base_url: y\n",
			"agentls/config.yaml:3: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := scripted.Parse([]byte("name: x\nsteps:\n  - text: never\n"))
			if err != nil {
				t.Fatal(err)
			}
			model := scripted.New(sc)
			r := newRig(t, setup{files: tt.files, userConfig: tt.userConfig, model: model})
			sid := r.newSession().SessionId
			for range 2 {
				stop, err := r.prompt(sid, "hello")
				var re *sdk.RequestError
				if err == nil || !errors.As(err, &re) || !strings.Contains(re.Message, tt.want) ||
					!strings.Contains(re.Message, "agentls sends no request to the model until it loads") {
					t.Fatalf("prompt = %s, %v; want an error containing %q", stop, err, tt.want)
				}
			}
			if n := model.Remaining(); n != 1 {
				t.Fatalf("the model was asked while the configuration was broken (%d steps left)", n)
			}
		})
	}
}
