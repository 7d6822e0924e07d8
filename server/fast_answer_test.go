package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestTrustAnsweredFasterThanAPerson: a plain editor that answers the
// workspace configuration's trust question at once (a plug-in, a script)
// is named in a window/logMessage when it trusts — no tool call holds that
// question — and not when it refuses: refusing grants nothing.
func TestTrustAnsweredFasterThanAPerson(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		answer string
		noted  bool
	}{
		{"Trust", true},
		{"Don't trust", false},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			t.Parallel()
			rec := &trustRecorder{trustAnswer: tc.answer}
			h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{".agentls.yaml": trustedYAML},
				Env: map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}, Caps: noAskUser(), Script: runEchoScript,
				Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
			h.AwaitMessage("window/showMessageRequest", "Trust it?")
			if tc.noted {
				h.AwaitMessage("window/logMessage", "answered by the client in ", "(allow_always)")
			}
			runOutcome(h) // a turn after the answer: a note would have come by its end
			noted := false
			for _, m := range h.Editor.Messages() {
				var p struct {
					Message string `json:"message"`
				}
				if m.Method == "window/logMessage" && json.Unmarshal(m.Params, &p) == nil {
					noted = noted || strings.HasPrefix(p.Message, "answered by the client in ") &&
						strings.Contains(p.Message, " ms (allow_always): faster than a person decides; check the client's auto-approve setting")
				}
			}
			if noted != tc.noted {
				t.Errorf("window/logMessage names the client's own answer: %v, want %v", noted, tc.noted)
			}
		})
	}
}
