package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// The model the ACP face reports is the model that answers: under the
// scripted provider it is "scripted" (or its model.name), never the built-in
// OpenAI default it does not call (agent-shell showed "gpt-4.1" in its
// header, from the `model` option). /model says the same.
func TestModelNameFollowsTheProvider(t *testing.T) {
	for _, tt := range []struct {
		name, userConfig, want string
	}{
		{"scripted without a name", "model: {provider: scripted, script: s.yaml}\n", "scripted"},
		{"scripted with a name", "model: {provider: scripted, script: s.yaml, name: my-transcript}\n", "my-transcript"},
		{"openai default", "model: {provider: openai}\n", "gpt-4.1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, setup{userConfig: tt.userConfig, script: "steps:\n  - text: unused\n"})
			res := r.newSession()
			var values []string
			current := ""
			for _, o := range res.ConfigOptions {
				if o.Select == nil || o.Select.Id != "model" {
					continue
				}
				current = string(o.Select.CurrentValue)
				for _, v := range *o.Select.Options.Ungrouped {
					values = append(values, string(v.Value))
				}
			}
			if current != tt.want || strings.Join(values, ",") != tt.want {
				t.Errorf("model option: current %q, values %v; want %q", current, values, tt.want)
			}
			if stop := r.mustPrompt(res.SessionId, "/model"); stop != sdk.StopReasonEndTurn {
				t.Errorf("/model: stop %s", stop)
			}
			if text := r.client.agentText(); !strings.Contains(text, "Model in plan mode: "+tt.want+".") {
				t.Errorf("/model answered %q, want the model %q", text, tt.want)
			}
		})
	}
}
