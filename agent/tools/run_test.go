package tools

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

func TestRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      string
		maxOut    int
		reject    bool
		confirmEr error
		unsaved   []string
		want      RunOutput // DurationMs and Sandbox are not compared
		wantError []string
		confirmed bool // ConfirmRun was asked
	}{
		{name: "success", args: `{"command":"echo hi; echo err >&2"}`, want: RunOutput{Output: "hi\nerr\n"}, confirmed: true},
		{name: "non-zero exit is still a success", args: `{"command":"echo failing; exit 3"}`, want: RunOutput{ExitCode: 3, Output: "failing\n"}, confirmed: true},
		{name: "cwd", args: `{"command":"cat b.txt","cwd":"sub"}`, want: RunOutput{Output: "in sub\n"}, confirmed: true},
		{name: "terminal sequences dropped (a forced colour, a title, a hyperlink)", args: `{"command":"printf '\\033[1;32mok\\033[0m \\033]0;title\\007\\033]8;;https://x\\033\\\\link\\033]8;;\\033\\\\\\n'"}`, want: RunOutput{Output: "ok link\n"}, confirmed: true},
		{name: "killed by a signal", args: `{"command":"kill -TERM $$"}`, want: RunOutput{ExitCode: 128 + int(syscall.SIGTERM)}, confirmed: true},
		{
			name: "unsaved files warning", args: `{"command":"true"}`, unsaved: []string{"a.go", "b/c.go"},
			want:      RunOutput{Warning: "unsaved in the editor: the command sees the files on disk, not your edits to a.go, b/c.go"},
			confirmed: true,
		},
		{name: "rejected", args: `{"command":"rm -rf sub"}`, reject: true, wantError: []string{"the user rejected running rm -rf sub"}, confirmed: true},
		{name: "confirmation failed", args: `{"command":"make"}`, confirmEr: errors.New("no surface; add it to run.allow"), wantError: []string{"run.allow"}, confirmed: true},
		{name: "cwd outside", args: `{"command":"ls","cwd":"../.."}`, wantError: []string{"cwd:", "outside the workspace"}},
		{name: "cwd is a file", args: `{"command":"ls","cwd":"sub/b.txt"}`, wantError: []string{"not an existing folder"}},
		{name: "empty command", args: `{"command":"  "}`, wantError: []string{"command is required"}},
		{name: "negative timeout", args: `{"command":"true","timeout_secs":-1}`, wantError: []string{"timeout_secs"}},
		{name: "bad args", args: `{"cmd":"true"}`, wantError: []string{"invalid arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, map[string]string{"sub/b.txt": "in sub\n"})
			env.confirm = !tt.reject
			env.confirmErr = tt.confirmEr
			env.unsaved = tt.unsaved
			r := call(t, runTool, env, tt.args)
			if asked := len(env.confirmed) > 0; asked != tt.confirmed {
				t.Errorf("ConfirmRun asked = %v, want %v", asked, tt.confirmed)
			}
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			var got RunOutput
			value(t, r, &got)
			got.DurationMs = 0
			got.Sandbox = "" // run_sandbox_linux_test.go
			if got != tt.want {
				t.Errorf("result = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestRunTimeout(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	var got RunOutput
	value(t, call(t, runTool, env, `{"command":"echo started; sleep 100","timeout_secs":1}`), &got)
	if !got.TimedOut || got.ExitCode != 128+int(syscall.SIGKILL) || got.Output != "started\n" {
		t.Errorf("result = %+v, want timed out, killed, with the output so far", got)
	}
}

func TestRunOutputCap(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	env.cfg.Run.MaxOutputBytes = 64
	full, err := exec.Command("seq", "1", "1000").Output()
	if err != nil {
		t.Skipf("seq: %v", err)
	}
	var got RunOutput
	value(t, call(t, runTool, env, `{"command":"seq 1 1000"}`), &got)
	want := fmt.Sprintf("%s\n… %d bytes omitted …\n%s", full[:32], len(full)-64, full[len(full)-32:])
	if got.Output != want {
		t.Errorf("output =\n%q\nwant\n%q", got.Output, want)
	}
}

func TestHeadTail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{name: "fits", limit: 10, writes: []string{"abc", "def"}, want: "abcdef"},
		{name: "exactly full", limit: 6, writes: []string{"abcdef"}, want: "abcdef"},
		{name: "one big write", limit: 6, writes: []string{"0123456789"}, want: "012\n… 4 bytes omitted …\n789"},
		{name: "many small writes wrap the tail", limit: 6, writes: []string{"01", "23", "45", "67", "89", "ab"}, want: "012\n… 6 bytes omitted …\n9ab"},
		{name: "tail write larger than its buffer", limit: 6, writes: []string{"0", "123456789xyz"}, want: "012\n… 7 bytes omitted …\nxyz"},
		{name: "cuts at UTF-8 boundaries", limit: 8, writes: []string{"aéééééb"}, want: "aé\n… 6 bytes omitted …\néb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHeadTail(tt.limit)
			for _, w := range tt.writes {
				if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := h.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRunCancelledWhileAsking: the user cancels while the permission request
// is open; the model reads that the command did not run.
func TestRunCancelledWhileAsking(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	env.confirm, env.confirmErr = false, context.Canceled
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := runTool.Run(ctx, env, []byte(`{"command":"touch ran.txt"}`))
	if err != nil {
		t.Fatalf("Go error %v, want a tool result the model reads", err)
	}
	wantFail(t, r, "cancelled by the user", "touch ran.txt did not run")
	if !env.missing("ran.txt") {
		t.Error("the command ran")
	}
}

// TestRunRereadsModeBeforeStart: ConfirmRun said yes (the user's answer, or
// the allow list without asking), but the session left build mode meanwhile:
// the mode read right before the process starts refuses the command.
func TestRunRereadsModeBeforeStart(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	env.onConfirm = func() { env.setMode(agentproto.ModePlan) }
	r := call(t, runTool, env, `{"command":"touch ran.txt"}`)
	if r.Refusal == nil || r.Refusal.ToolName != "run" || r.Refusal.ToolKind != guard.KindExecute || r.Error != guard.RefusalMessage {
		t.Fatalf("result = %+v, want the plan-mode refusal", r)
	}
	if !strings.Contains(r.Refusal.Hint, "no longer in build mode") {
		t.Errorf("hint = %q", r.Refusal.Hint)
	}
	if !env.missing("ran.txt") {
		t.Error("the command ran after the session switched to plan mode")
	}
}
