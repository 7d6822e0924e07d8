package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/internal/lspclient"
)

// processServe starts this test binary as a real agentls process serving
// the fake editor's pipes; the started process is sent on started.
func processServe(t *testing.T, started chan<- *os.Process) lspclient.Serve {
	return processServeWith(t, started, nil)
}

// processServeWith is processServe with setup adjusting the command (its
// binary, environment or credentials) before it starts.
func processServeWith(t *testing.T, started chan<- *os.Process, setup func(*exec.Cmd)) lspclient.Serve {
	return func(ctx context.Context, rwc io.ReadWriteCloser) error {
		cmd := exec.Command(os.Args[0], "--log-level", "debug")
		cmd.Env = append(os.Environ(), "AGENTLS_TEST_MAIN=1", "OPENAI_API_KEY=", "MY_KEY=sk-test")
		if setup != nil {
			setup(cmd)
		}
		in, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			return err
		}
		started <- cmd.Process
		// The copy to the process ends when the editor closes its side
		// (after serve returns); the copy from it when the process dies.
		go func() {
			_, _ = io.Copy(in, rwc)
			_ = in.Close()
		}()
		_, _ = io.Copy(rwc, out)
		err = cmd.Wait()
		if t.Failed() {
			t.Logf("agentls: %v; stderr:\n%s", err, stderr.String())
		}
		return err
	}
}

// TestKillMidBuildTurnThenPromptAgain kills the real agentls process (kill
// -9) while a build turn's edit waits for the editor, after the model's
// tool call was stored but before its result; a restarted agentls loads the
// session and the next prompt succeeds against an endpoint that, like real
// ones, rejects a history holding a tool call without its result.
func TestKillMidBuildTurnThenPromptAgain(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		if r.LastUser() == "create the file" && r.Messages[len(r.Messages)-1].Role == "user" {
			return fakeopenai.Reply{Text: "Creating it.", ToolCalls: []fakeopenai.ToolCall{
				fakeopenai.Call("call_w", "write", `{"path":"new.txt","content":"hello\n"}`),
			}}
		}
		return fakeopenai.Reply{Text: "Done: the earlier write was interrupted."}
	}})
	defer fake.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	init := map[string]any{
		"rootUri": "file://" + filepath.ToSlash(dir),
		"capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}}},
			"experimental": map[string]any{"agent": map[string]any{"savesEdits": true}}}, // edits go through applyEdit
		"initializationOptions": map[string]any{
			"model": map[string]any{"provider": "openai", "base_url": fake.URL, "api_key_env": "MY_KEY", "name": "m"},
		},
	}

	// First process: the turn's edit reaches the editor, which kills agentls.
	started := make(chan *os.Process, 1)
	var once sync.Once
	var proc *os.Process
	ed, err := lspclient.Start(ctx, dir, processServe(t, started), lspclient.Handlers{
		OnMessage: func(m lspclient.Message) {
			if m.Method == "workspace/applyEdit" {
				once.Do(func() { _ = proc.Kill() })
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	proc = <-started
	sid := initBuildSession(ctx, t, ed, init)
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "create the file"}, nil); err == nil {
		t.Fatal("the prompt of the killed process returned a result")
	} else {
		t.Logf("prompt: %v", err)
	}
	_ = ed.Close()
	chat, err := os.ReadFile(filepath.Join(dir, ".agentls", "chats", sid+".chat"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(chat), `"call_w"`) || strings.Contains(string(chat), `"tool_call_id":"call_w"`) {
		t.Fatalf("the session file should end in the call without its result:\n%s", chat)
	}

	// Second process: load the session and prompt again.
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
	var res struct {
		StopReason string `json:"stopReason"`
		Error      *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := ed2.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "what happened?"}, &res); err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "end_turn" {
		t.Fatalf("prompt after the restart = %+v %+v", res, res.Error)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-1]
	if last.Status != 200 || !strings.Contains(string(last.Body), "interrupted: agentls stopped before this tool finished") {
		t.Fatalf("last request (%d):\n%s", last.Status, last.Body)
	}
	if err := ed2.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}
