package acp_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// cancelAfterAnswer is the client's output on its way to agentls: the
// line that answers a permission request carries, in the same write, a
// session/cancel of the session (agent-shell's Keep Planning sends
// reject_once and then session/cancel at once).
type cancelAfterAnswer struct {
	w io.Writer

	mu  sync.Mutex
	sid string
}

func (c *cancelAfterAnswer) Write(p []byte) (int, error) {
	c.mu.Lock()
	sid := c.sid
	c.mu.Unlock()
	if sid != "" && bytes.Contains(p, []byte(`"optionId"`)) {
		line := append(bytes.TrimRight(append([]byte(nil), p...), "\n"), '\n')
		line = fmt.Appendf(line, `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`+"\n", sid)
		if _, err := c.w.Write(line); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.w.Write(p)
}

// TestAnswerThenCancelKeepsTheAnswer: an approval answered Keep Planning
// with the turn's cancel right behind it is recorded as the rejection the
// user chose, not as a withdrawn approval, every time (the cancel used to
// win about half the time).
func TestAnswerThenCancelKeepsTheAnswer(t *testing.T) {
	t.Parallel()
	for i := range 16 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			wrap := &cancelAfterAnswer{}
			client := &testClient{permit: choose("reject_once")}
			r := newRig(t, setup{files: map[string]string{"app.txt": "alpha\n"}, client: client,
				wrapIn: func(w io.Writer) io.Writer { wrap.w = w; return wrap }, script: `
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: Shout, path: plans/shout.plan, content: "# Goal\nShout.\n\n## Steps\n- [ ] Shout\n"}}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan}}
  - text: "Revising."
`})
			sid := r.newSession().SessionId
			wrap.mu.Lock()
			wrap.sid = string(sid)
			wrap.mu.Unlock()
			// The turn ends cancelled, or ends before the cancel is read
			// (the scripted model answers at once): either way the answer
			// stands.
			if _, err := r.prompt(sid, "plan it"); err != nil {
				t.Fatalf("prompt: %v", err)
			}
			var text []string
			for _, u := range client.toolUpdates("x1") {
				for _, c := range u.Content {
					if c.Content != nil && c.Content.Content.Text != nil {
						text = append(text, c.Content.Content.Text.Text)
					}
				}
			}
			got := strings.Join(text, "\n")
			if strings.Contains(got, "withdrawn") || !strings.Contains(got, "keep planning") {
				t.Fatalf("exit_plan_mode's result = %q, want the user's Keep Planning", got)
			}
		})
	}
}
