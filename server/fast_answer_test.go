package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestTrustAnsweredFasterThanAPerson: a plain editor that answers the
// workspace configuration's trust question "Trust" at once (a plug-in, a
// script) trusts nothing: a warning (window/showMessage, no tool call
// holds that question) says the client answered in N ms, faster than a
// person, that the file stays untrusted and that the question comes again;
// the widening keys stay ignored, nothing is remembered, and the next
// start asks again, where a person's "Trust" applies them. A fast "Don't
// trust" is not marked: refusing grants nothing.
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
			dir, state := t.TempDir(), t.TempDir()
			env := map[string]string{"XDG_STATE_HOME": state, "XDG_CONFIG_HOME": t.TempDir()}
			rec := &trustRecorder{trustAnswer: tc.answer}
			h := lsptest.Start(t, lsptest.Setup{Dir: dir, Files: map[string]string{".agentls.yaml": trustedYAML},
				Env: env, Caps: noAskUser(), Script: runEchoScript, AnswerAtOnce: true,
				Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
			h.AwaitMessage("window/showMessageRequest", "Trust it?")
			if tc.noted {
				h.AwaitMessage("window/showMessage", `"type":2`, "answered by the client in ", "(allow_always), faster than a person decides",
					"not trusted this time", ".agentls.yaml stays untrusted until you trust it")
			}
			if runOutcome(h) { // a turn after the answer: a note would have come by its end
				t.Fatal("the client's own answer trusted the file: its run.allow let the command run without asking")
			}
			noted := false
			for _, m := range h.Editor.Messages() {
				if strings.Contains(string(m.Params), "answered by the client in ") {
					noted = true
					if strings.Contains(string(m.Params), "auto-approve setting;") || strings.Contains(string(m.Params), "check the client") {
						t.Errorf("the note claims the user's auto-approve setting is on: %s", m.Params)
					}
				}
			}
			if noted != tc.noted {
				t.Errorf("a message names the client's own answer: %v, want %v", noted, tc.noted)
			}
			if err := h.Editor.Shutdown(h.Ctx); err != nil {
				t.Fatal(err)
			}
			if entries, _ := os.ReadDir(filepath.Join(state, "agentls", "trust")); len(entries) != 0 {
				t.Fatalf("the client's own %q was remembered as trust: %v", tc.answer, entries)
			}

			// The next start asks again; a person's "Trust" applies it.
			rec = &trustRecorder{trustAnswer: "Trust"}
			h = lsptest.Start(t, lsptest.Setup{Dir: dir, Env: env, Caps: noAskUser(), Script: runEchoScript,
				Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
			h.AwaitMessage("window/showMessage", `"type":3`, "you trusted")
			if !runOutcome(h) {
				t.Fatal("a person's Trust at the next start did not apply run.allow")
			}
		})
	}
}
