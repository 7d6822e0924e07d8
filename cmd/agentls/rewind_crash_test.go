package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/internal/lspclient"
)

// TestKillMidRewindThenRewindAgain (issue 20): a real agentls process
// rewinds three files on disk (an editor without applyEdit) and is killed
// (kill -9) after the second; every file is then wholly old or wholly new,
// the journal is reported by the restarted process, and a rewind again
// from the checkpoints that survived the restart finishes the job.
func TestKillMidRewindThenRewindAgain(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	dir := t.TempDir()
	names := []string{"a.txt", "b.txt", "sub/c.txt"}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := map[string]string{}
	for _, n := range names {
		old[n] = strings.Repeat("old "+n+"\n", 400) // several KB: a torn write would show
		if err := os.WriteFile(filepath.Join(dir, n), []byte(old[n]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	newer := func(n string) string { return strings.Repeat("new "+n+"\n", 500) }
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		if r.Messages[len(r.Messages)-1].Role == "user" {
			var calls []fakeopenai.ToolCall
			for i, n := range names {
				calls = append(calls, fakeopenai.Call("w"+strconv.Itoa(i), "write", `{"path":"`+n+`","content":`+strconv.Quote(newer(n))+`}`))
			}
			return fakeopenai.Reply{Text: "Rewriting.", ToolCalls: calls}
		}
		return fakeopenai.Reply{Text: "Done."}
	}})
	defer fake.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	init := map[string]any{
		"rootUri":      "file://" + filepath.ToSlash(dir),
		"capabilities": map[string]any{}, // no applyEdit: the rewind writes on disk
		"initializationOptions": map[string]any{
			"model": map[string]any{"provider": "openai", "base_url": fake.URL, "api_key_env": "MY_KEY", "name": "m"},
		},
	}

	// First process: one turn rewrites the files; the rewind stalls after
	// its second file and the editor kills agentls there.
	started := make(chan *os.Process, 1)
	var once sync.Once
	var proc *os.Process
	stall := func(cmd *exec.Cmd) { cmd.Env = append(cmd.Env, "AGENTLS_TEST_REWIND_STALL_AFTER=2") }
	ed, err := lspclient.Start(ctx, dir, processServeWith(t, started, stall), lspclient.Handlers{
		OnMessage: func(m lspclient.Message) {
			if m.Method == "window/logMessage" && strings.Contains(string(m.Params), "[rewind] test stall after 2 files") {
				once.Do(func() { _ = proc.Kill() })
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	proc = <-started
	sid := initBuildSession(ctx, t, ed, init)
	var res struct {
		StopReason string `json:"stopReason"`
		Error      *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "rewrite them"}, &res); err != nil || res.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v %+v %v", res, res.Error, err)
	}
	for _, n := range names {
		if got := readFile(t, dir, n); got != newer(n) {
			t.Fatalf("the turn did not rewrite %s", n)
		}
	}
	turn1 := userMessageID(ctx, t, ed, sid)
	if err := ed.Call(ctx, "agent/rewind", map[string]any{"sessionId": sid, "toMessageId": turn1, "what": "code"}, nil); err == nil {
		t.Fatal("the rewind of the killed process returned a result")
	}
	_ = ed.Close()

	rewound := 0
	for _, n := range names {
		switch got := readFile(t, dir, n); got {
		case old[n]:
			rewound++
		case newer(n):
		default:
			t.Fatalf("%s is neither wholly old nor wholly new after the kill (%d bytes)", n, len(got))
		}
	}
	if rewound != 2 {
		t.Fatalf("%d files rewound before the kill, want 2 (the stall point)", rewound)
	}

	// What a kill in the middle of the third file's write would leave.
	leftover := filepath.Join(dir, "sub", ".c.txt.agentls-"+strconv.Itoa(proc.Pid)+"-12345.tmp")
	if err := os.WriteFile(leftover, []byte("new c.t"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Second process: the store survived; the journal is reported (and
	// the killed write's temporary file removed); a rewind again finishes.
	started2 := make(chan *os.Process, 1)
	ed2, err := lspclient.Start(ctx, dir, processServe(t, started2), lspclient.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	defer ed2.Close()
	<-started2
	if err := ed2.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	if err := ed2.Call(ctx, "agent/loadSession", map[string]any{"sessionId": sid}, nil); err != nil {
		t.Fatal(err)
	}
	if err := ed2.Await(ctx, func(msgs []lspclient.Message) bool {
		for _, m := range msgs {
			if m.Method == "window/logMessage" && strings.Contains(string(m.Params), "was interrupted") {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("no log line reporting the interrupted rewind: %v", err)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Fatalf("the killed write's temporary file is still there: %v", err)
	}
	var again struct {
		Restored  []string `json:"restored"`
		Conflicts []struct {
			Path string `json:"path"`
		} `json:"conflicts"`
	}
	if err := ed2.Call(ctx, "agent/rewind", map[string]any{"sessionId": sid, "toMessageId": turn1, "what": "code"}, &again); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if readFile(t, dir, n) != old[n] {
			t.Fatalf("%s is not rewound after the second rewind (%+v)", n, again)
		}
	}
	if len(again.Conflicts) != 0 {
		t.Fatalf("conflicts after the restart: %+v", again.Conflicts)
	}
	if _, err := os.Stat(filepath.Join(dir, ".agentls", "checkpoints", sid, "rewind.journal")); !os.IsNotExist(err) {
		t.Fatalf("the journal is still there after the rewind finished: %v", err)
	}
	if err := ed2.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// userMessageID is the id of the session's first user message, as
// agent/loadSession shows it.
func userMessageID(ctx context.Context, t *testing.T, ed *lspclient.Client, sid string) string {
	t.Helper()
	var loaded struct {
		Messages []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := ed.Call(ctx, "agent/loadSession", map[string]any{"sessionId": sid}, &loaded); err != nil {
		t.Fatal(err)
	}
	for _, m := range loaded.Messages {
		if m.Role == "user" && m.ID != "" {
			return m.ID
		}
	}
	t.Fatalf("no user message with an id in %+v", loaded.Messages)
	return ""
}
