package server_test

import (
	"fmt"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestExitMidTurnAsksTheModelNothingMore: the editor sends `exit` (without
// shutdown), or its side of the pipe closes, while a build turn's edit
// waits for it. The turn ends there:
// its edit fails as cancelled and the model is not asked for another step
// (before, the edit often failed first with the closed connection's error
// while the turn's context had not yet heard of the exit, and the model was
// asked again, its answer stored after the exit: 7 runs in 30; the same
// for the end of the input). A restarted
// server loads the session and the next prompt reads the write as failed.
func TestExitMidTurnAsksTheModelNothingMore(t *testing.T) {
	t.Parallel()
	for i := range 20 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			h := lsptest.Start(t, lsptest.Setup{
				Dir: dir,
				Script: `
name: exit_mid_turn
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: new.txt, content: "hello\n"}}
  - text: asked after the exit
`,
				Handlers: lspclient.Handlers{Unanswered: []string{"workspace/applyEdit"}},
			})
			s := h.NewSession("build")
			done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "write it"})
			h.Await(lsptest.Received("workspace/applyEdit"))
			if i%2 == 0 {
				if err := h.Editor.Notify(h.Ctx, "exit", nil); err != nil {
					t.Fatal(err)
				}
			} else {
				_ = h.Editor.Disconnect() // the input ends (an editor that crashed)
			}
			<-done
			_ = h.Editor.Close() // waits for the server to return
			if n := h.Model.Remaining(); n != 1 {
				t.Fatalf("the model was asked for another step after exit (%d steps left, want 1)", n)
			}
			h2 := lsptest.Start(t, lsptest.Setup{
				Dir: dir,
				Script: `
name: after_restart
steps:
  - text: again
    expect:
      tool_result_contains: {w: ['"success":false']}
`,
			})
			h2.LoadSession(s.SessionID)
			wantStop(t, h2.Prompt(s.SessionID, "what happened?"), "end_turn")
		})
	}
}
