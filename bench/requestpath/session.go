package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/internal/lspclient"
)

// makeWorkspace writes the workspace every session works in: ten Go files
// of about 6 KB.
func makeWorkspace(tmp string) (string, error) {
	ws := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return "", err
	}
	for i := range 10 {
		var b strings.Builder
		fmt.Fprintf(&b, "// Package f%d is generated for the request-path benchmark.\npackage f%d\n\n", i, i)
		for n := 1; b.Len() < 6<<10; n++ {
			fmt.Fprintf(&b, "// Handler%d serves route %d.\nfunc Handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n\n", n, n, n, n*31)
		}
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%d.go", i)), []byte(b.String()), 0o644); err != nil {
			return "", err
		}
	}
	return ws, nil
}

// reply is the scripted model: a prompt "task N" gets three read-only tool
// calls (read, grep, ls), their results get the answer, and a request for
// a hand-off summary gets one.
func reply(r fakeopenai.Request) fakeopenai.Reply {
	if strings.Contains(r.System(), "You write hand-off summaries") {
		return fakeopenai.Reply{Text: "Goal: look at the handlers file by file. Decisions: none. Files touched: f0.go–f9.go (read). Open questions: none. Next steps: keep going."}
	}
	last := r.Messages[len(r.Messages)-1]
	if last.Role == "user" && strings.HasPrefix(last.Content, "task ") {
		n, _ := strconv.Atoi(strings.TrimPrefix(last.Content, "task "))
		id := fmt.Sprintf("call_%d_", n)
		return fakeopenai.Reply{Text: "Looking at the code.", ToolCalls: []fakeopenai.ToolCall{
			fakeopenai.Call(id+"read", "read", fmt.Sprintf(`{"path":"f%d.go","limit":40}`, n%10)),
			fakeopenai.Call(id+"grep", "grep", fmt.Sprintf(`{"pattern":"Handler%d\\b","path":"."}`, n%50+1)),
			fakeopenai.Call(id+"ls", "ls", `{"path":"."}`),
		}}
	}
	return fakeopenai.Reply{Text: "Each file holds small HTTP handlers that call serve; nothing needs to change for this step."}
}

// sessionRun is what one session measured.
type sessionRun struct {
	turns   []time.Duration // server CPU per turn
	start   time.Duration   // server CPU from exec to the session's creation (initialize, agent/newSession)
	peakRSS int64           // the server's peak resident memory (VmHWM), bytes
	faults  int64           // the server's minor page faults over the turns
}

// runSession starts bin as an LSP server on ws, runs a session of n turns
// against a fresh fake endpoint (after a one-turn session in the same
// process when warmup is set), and returns what it measured.
func runSession(ctx context.Context, bin, ws, tmp string, n, window int, warmup bool) (sessionRun, error) {
	var run sessionRun
	fake := fakeopenai.New(fakeopenai.Options{Reply: reply})
	defer fake.Close()
	cfg := filepath.Join(tmp, "config.yaml")
	yaml := fmt.Sprintf("model:\n  provider: openai\n  base_url: %q\n  api_key_env: BENCH_KEY\n  name: bench-model\n  context_window: %d\n", fake.URL, window)
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		return run, err
	}
	pids := make(chan int, 1)
	var stderr bytes.Buffer
	serve := func(ctx context.Context, rwc io.ReadWriteCloser) error {
		cmd := exec.CommandContext(ctx, bin, "--config", cfg, "serve")
		cmd.Dir = ws
		cmd.Env = benchEnv(ws)
		cmd.Stdout, cmd.Stderr = rwc, &stderr
		// The editor's side is copied by hand: exec's own copy would make
		// Wait wait for the editor's end of the pipe to close.
		stdin, err := cmd.StdinPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err != nil {
			pids <- 0
			return err
		}
		pids <- cmd.Process.Pid
		go func() {
			_, _ = io.Copy(stdin, rwc)
			stdin.Close()
		}()
		return cmd.Wait()
	}
	ed, err := lspclient.Start(ctx, ws, serve, lspclient.Handlers{})
	if err != nil {
		return run, err
	}
	defer ed.Close()
	pid := <-pids
	if pid == 0 {
		return run, fmt.Errorf("%s did not start: %s", bin, stderr.String())
	}
	init := map[string]any{"rootUri": "file://" + filepath.ToSlash(ws),
		"capabilities": map[string]any{"experimental": map[string]any{"agent": map[string]any{"askUser": true, "modeIndicator": true}}}}
	ictx, cancel := context.WithTimeout(ctx, turnTimeout)
	defer cancel()
	if err := ed.Call(ictx, "initialize", init, nil); err != nil {
		return run, fmt.Errorf("initialize: %w (stderr: %s)", err, tail(stderr.String()))
	}
	if err := ed.Notify(ctx, "initialized", map[string]any{}); err != nil {
		return run, err
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if warmup {
		// A session of one turn first, in the same process: the measured
		// session's turn 1 then pays only what a new session costs, not
		// what a new process does (for telling the two apart).
		if err := ed.Call(ictx, "agent/newSession", map[string]any{"mode": "build"}, &s); err != nil {
			return run, fmt.Errorf("warm-up agent/newSession: %w (stderr: %s)", err, tail(stderr.String()))
		}
		if err := ed.Call(ictx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "task 0"}, nil); err != nil {
			return run, fmt.Errorf("warm-up turn: %w (stderr: %s)", err, tail(stderr.String()))
		}
	}
	if err := ed.Call(ictx, "agent/newSession", map[string]any{"mode": "build"}, &s); err != nil {
		return run, fmt.Errorf("agent/newSession: %w (last messages: %s; stderr: %s)", err, lastMessages(ed), tail(stderr.String()))
	}
	if run.start, err = processCPU(pid); err != nil {
		return run, err
	}
	cpu := make([]time.Duration, 0, n)
	faultsBefore := minorFaults(pid)
	for turn := 1; turn <= n; turn++ {
		before, err := processCPU(pid)
		if err != nil {
			return run, err
		}
		var res struct {
			StopReason string `json:"stopReason"`
			Error      *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		tctx, cancel := context.WithTimeout(ctx, turnTimeout)
		from := turnMarks.now()
		err = ed.Call(tctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": fmt.Sprintf("task %d", turn)}, &res)
		cancel()
		turnMarks.turn(pid, turn, from, turnMarks.now())
		if err != nil {
			return run, fmt.Errorf("turn %d: %w (last messages: %s; stderr: %s)", turn, err, lastMessages(ed), tail(stderr.String()))
		}
		after, err := processCPU(pid)
		if err != nil {
			return run, err
		}
		cpu = append(cpu, after-before)
		if res.StopReason != "end_turn" {
			msg := ""
			if res.Error != nil {
				msg = res.Error.Message
			}
			return run, fmt.Errorf("turn %d ended with %s: %s", turn, res.StopReason, msg)
		}
	}
	if err := toolsSucceeded(fake.Requests()); err != nil {
		return run, err
	}
	run.turns, run.peakRSS, run.faults = cpu, peakRSS(pid), minorFaults(pid)-faultsBefore
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_ = ed.Shutdown(sctx)
	return run, nil
}

// toolsSucceeded checks that the last turn's tool calls worked (a failing
// tool would make the numbers meaningless).
func toolsSucceeded(reqs []fakeopenai.Request) error {
	if len(reqs) == 0 {
		return fmt.Errorf("no model requests")
	}
	msgs := reqs[len(reqs)-1].Messages
	tools := 0
	for _, m := range msgs[max(0, len(msgs)-3):] {
		if m.Role != "tool" {
			continue
		}
		tools++
		if strings.HasPrefix(m.Content, `{"error"`) {
			return fmt.Errorf("a tool call failed: %.300s", m.Content)
		}
	}
	if tools != 3 {
		return fmt.Errorf("the last request holds %d tool results, want 3", tools)
	}
	return nil
}

// turnTimeout bounds one turn: a turn that hangs is an error, not a stall.
const turnTimeout = 20 * time.Second

// lastMessages names the last few messages the server sent, for errors.
func lastMessages(ed *lspclient.Client) string {
	msgs := ed.Messages()
	var names []string
	for _, m := range msgs[max(0, len(msgs)-5):] {
		names = append(names, m.Method+" "+string(m.Params[:min(len(m.Params), 200)]))
	}
	return strings.Join(names, " | ")
}

// benchEnv is the server's environment: this one without model or agentls
// settings or user configuration, with the fake endpoint's key.
func benchEnv(ws string) []string {
	env := []string{"XDG_CONFIG_HOME=" + filepath.Join(ws, ".no-user-config"), "BENCH_KEY=sk-bench"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENAI_") && !strings.HasPrefix(kv, "AGENTLS_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return env
}

func tail(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}
