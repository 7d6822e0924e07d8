package acp_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// nullResults rewrites the client's empty results (`"result":{}`, the SDK's
// answer to fs/write_text_file) to `"result":null`, as CodeCompanion.nvim
// and avante.nvim answer. The SDK writes one message per Write.
type nullResults struct {
	w         io.Writer
	rewritten atomic.Int32
}

func (n *nullResults) Write(p []byte) (int, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(p, &m) == nil && m["method"] == nil && m["id"] != nil && bytes.Equal(m["result"], []byte("{}")) {
		m["result"] = json.RawMessage("null")
		b, err := json.Marshal(m)
		if err != nil {
			return 0, err
		}
		n.rewritten.Add(1)
		if _, err := n.w.Write(append(b, '\n')); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return n.w.Write(p)
}

// promptEndsTurn sends the prompt text and fails the test unless the turn
// ends end_turn within 30 s; stuck is the failure when it does not end.
func (r *rig) promptEndsTurn(sid sdk.SessionId, text, stuck string) {
	r.t.Helper()
	select {
	case res := <-r.promptAsync(sid, text):
		if res.err != nil || res.stop != sdk.StopReasonEndTurn {
			r.t.Fatalf("prompt = %s, %v", res.stop, res.err)
		}
	case <-time.After(30 * time.Second):
		r.t.Fatal(stuck)
	}
}

// TestUnansweredWriteTextFileIsBounded: a client that never answers
// fs/write_text_file fails the write after editor.request_timeout_secs
// (the model reads why) instead of holding the turn; the turn ends.
func TestUnansweredWriteTextFileIsBounded(t *testing.T) {
	t.Parallel()
	hang := make(chan struct{})
	client := &testClient{hangWrites: hang}
	r := newRig(t, setup{
		client: client, userConfig: "editor: {request_timeout_secs: 1}\n",
		caps: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}},
		script: `
steps:
  - tool_calls:
      - id: c1
        name: plan_write
        args: {title: Shout, path: plans/shout.plan, content: "# Goal\nShout.\n"}
  - text: "The editor did not write it."
    expect:
      tool_result_contains: {c1: ["did not answer fs/write_text_file within 1s (editor.request_timeout_secs)"]}
`})
	t.Cleanup(func() { close(hang) }) // before the rig's cleanup
	sid := r.newSession().SessionId
	r.promptEndsTurn(sid, "plan a shout", "the turn waited on an unanswered fs/write_text_file")
	if st := r.client.finalStatus("c1"); st != sdk.ToolCallStatusFailed {
		t.Errorf("plan_write status %q, want failed", st)
	}
}

// TestWriteTextFileNullResultIsSuccess: a client that answers
// fs/write_text_file with `"result": null` (valid JSON-RPC) or `{}` gets
// its plan written, and the turn ends.
func TestWriteTextFileNullResultIsSuccess(t *testing.T) {
	t.Parallel()
	const script = `
steps:
  - text: "Writing the plan."
    tool_calls:
      - id: c1
        name: plan_write
        args: {title: Shout, path: plans/shout.plan, content: "# Goal\nShout.\n\n## Steps\n- [ ] Shout\n"}
  - text: "Done."
    expect:
      tool_result_contains: {c1: ["\"success\":true"]}
`
	for _, tc := range []struct {
		name string
		null bool
	}{{"null", true}, {"empty object", false}} {
		t.Run(tc.name, func(t *testing.T) {
			rw := &nullResults{}
			s := setup{script: script, caps: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}}
			if tc.null {
				s.wrapIn = func(w io.Writer) io.Writer { rw.w = w; return rw }
			}
			r := newRig(t, s)
			sid := r.newSession().SessionId
			r.promptEndsTurn(sid, "plan a shout", "the turn did not end after the client answered fs/write_text_file")
			if st := r.client.finalStatus("c1"); st != sdk.ToolCallStatusCompleted {
				t.Errorf("plan_write status %q", st)
			}
			if b, err := os.ReadFile(filepath.Join(r.dir, "plans", "shout.plan")); err != nil || !bytes.Contains(b, []byte("- [ ] Shout")) {
				t.Errorf("plan file: %q, %v", b, err)
			}
			if len(r.wire.requests("fs/write_text_file")) == 0 {
				t.Error("the plan did not go through fs/write_text_file")
			}
			if tc.null && rw.rewritten.Load() == 0 {
				t.Error("no result was answered null")
			}
		})
	}
}

// TestUnansweredReadTextFileFallsBackOnce: a client that stops answering
// fs/read_text_file costs one editor.request_timeout_secs, not one per
// file: after the first unanswered read every file comes from the disk.
// Before, the turn below asked the client four times and waited 4 s.
func TestUnansweredReadTextFileFallsBackOnce(t *testing.T) {
	t.Parallel()
	hang := make(chan struct{})
	client := &testClient{hangReads: hang}
	r := newRig(t, setup{
		client: client, userConfig: "editor: {request_timeout_secs: 1}\n",
		caps:  sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true}},
		files: map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n", "d.txt": "delta\n"},
		script: `
steps:
  - tool_calls:
      - {id: r1, name: read, args: {path: a.txt}}
  - tool_calls:
      - {id: r2, name: read, args: {path: b.txt}}
  - tool_calls:
      - {id: r3, name: read, args: {path: c.txt}}
  - tool_calls:
      - {id: r4, name: read, args: {path: d.txt}}
  - text: "Read them all."
    expect:
      tool_result_contains: {r1: ["alpha"], r2: ["beta"], r3: ["gamma"], r4: ["delta"]}
`})
	t.Cleanup(func() { close(hang) }) // before the rig's cleanup
	sid := r.newSession().SessionId
	r.promptEndsTurn(sid, "read the files", "the turn waited on unanswered fs/read_text_file calls")
	client.mu.Lock()
	asked := len(client.reads)
	client.mu.Unlock()
	if asked != 1 {
		t.Errorf("the client was asked %d times for a file, want once (then the disk)", asked)
	}
}
