package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/testcache"
	sdk "github.com/coder/acp-go-sdk"
)

// TestMain lets the tests run this binary as the real agentls process:
// with AGENTLS_TEST_MAIN=1 the test binary is agentls.
func TestMain(m *testing.M) {
	sandboxExec() // the test binary is the sandbox's launcher too
	if os.Getenv("AGENTLS_TEST_MAIN") == "1" {
		keepInheritedHome()
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(testcache.Run(m)) // the commands' caches go to a temporary folder
}

// TestDemo: the demo tells every step of its story, and says on stderr
// what it waits for before the `go test` that may take minutes, right as
// that step starts (before the go test's result); its user approves as a
// person does, not as an auto-approve.
func TestDemo(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	both := &interleaved{}
	code := run([]string{"demo", "--color=false"}, nil, both.to(&out), both.to(&errOut))
	if code != 0 {
		t.Fatalf("demo exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), slowStep) {
		t.Errorf("the demo's stderr lacks %q", slowStep)
	}
	if want := "  → `go test ./...`\n" + slowStep + "\n"; !strings.Contains(both.String(), want) {
		t.Errorf("the progress line does not follow the go test's start at once:\n%s", both.String())
	}
	for _, want := range []string{
		"status bar: [ PLAN ]",
		"REFUSED: System is in Plan Mode. You can only modify the plan. Switch to Build Mode to apply changes.",
		`clicks "Accept & Build"`,
		"status bar: [ BUILD ]",
		"[plan-mode] approved plan=plans/health-endpoint.plan",
		"+	mux.HandleFunc(\"/health\", health)",
		"+- [x] Run `go test ./...`",
		"Demo complete: every step happened.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	// The demo's user reads the plan before approving it: no note that a
	// client auto-approved (the editor's log, which the demo shows).
	if strings.Contains(out.String(), "faster than a person") {
		t.Errorf("the demo's approval is marked as a client's auto-approve")
	}
	if t.Failed() {
		t.Log(out.String())
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"version"}, 0, "agentls ", ""},
		{[]string{"help"}, 0, "agentls demo", ""},
		{[]string{"--help"}, 0, "Usage:", ""},
		{[]string{"--version"}, 0, "agentls ", ""},
		{[]string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{[]string{"--log-level", "loud", "version"}, 2, "", "--log-level"},
		{[]string{"serve", "extra"}, 2, "", "unexpected arguments"},
		{[]string{"--bogus"}, 2, "", "flag provided but not defined: -bogus\nagentls — "},
		{[]string{"login", "--help"}, 0, "Usage:", ""},
		{[]string{"acp", "-h"}, 0, "Usage:", ""},
		{[]string{"serve", "--help"}, 0, "Usage:", ""},
		{[]string{"lint-plan", "--help"}, 0, "usage: agentls lint-plan", ""},
		{[]string{"demo", "--help"}, 0, "Usage of demo", ""},
		{[]string{"demo", "--colour"}, 2, "", "Usage of demo"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, strings.NewReader(""), &out, &errOut)
			// The usage is printed once: no stderr where none is expected.
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) ||
				tc.stderr == "" && errOut.Len() > 0 {
				t.Fatalf("run(%q) = %d\nstdout: %s\nstderr: %s", tc.args, code, out.String(), errOut.String())
			}
		})
	}
}

// agentlsProcess starts this test binary as a real agentls process on stdio.
func agentlsProcess(t *testing.T, args ...string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	return agentlsProcessEnv(t, nil, args...)
}

// agentlsProcessEnv is agentlsProcess with env (KEY=value) added to the
// process's environment.
func agentlsProcessEnv(t *testing.T, env []string, args ...string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "AGENTLS_TEST_MAIN=1", "OPENAI_API_KEY="), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdin, bufio.NewReader(stdout), &stderr
}

func send(t *testing.T, w io.Writer, body string) {
	t.Helper()
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		t.Fatal(err)
	}
}

func receive(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	hdr, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		t.Fatalf("read header: %v", err)
	}
	n, err := strconv.Atoi(hdr.Get("Content-Length"))
	if err != nil {
		t.Fatalf("bad header %v", hdr)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func wait(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(time.Minute):
		// A goroutine dump (SIGQUIT) says where it hangs.
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		t.Fatalf("agentls did not exit; stderr:\n%s", cmd.Stderr)
		return -1
	}
}

// TestServeProcess drives the real process over stdio: only protocol bytes
// on stdout, logs on stderr, clean exit codes.
func TestServeProcess(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{}}}`

	t.Run("shutdown then exit", func(t *testing.T) {
		logFile := dir + "/agentls.log"
		cmd, in, out, stderr := agentlsProcess(t, "--log-file", logFile, "--log-level", "debug", "serve")
		send(t, in, initialize)
		if got := receive(t, out); !strings.Contains(got, `"protocolVersion":3`) {
			t.Fatalf("initialize = %s", got)
		}
		send(t, in, `{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":{}}`)
		for {
			if got := receive(t, out); strings.Contains(got, `"id":2`) {
				if !strings.Contains(got, `"mode":"plan"`) {
					t.Fatalf("newSession = %s", got)
				}
				break
			}
		}
		send(t, in, `{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
		send(t, in, `{"jsonrpc":"2.0","method":"exit"}`)
		if code := wait(t, cmd); code != 0 {
			t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
		}
		if !strings.Contains(stderr.String(), "[plan-mode] entered") {
			t.Fatalf("logs did not reach stderr:\n%s", stderr)
		}
		if data, err := os.ReadFile(logFile); err != nil || !strings.Contains(string(data), "[plan-mode] entered") {
			t.Fatalf("log file: %v %s", err, data)
		}
	})
	t.Run("exit without shutdown", func(t *testing.T) {
		cmd, in, _, _ := agentlsProcess(t)
		send(t, in, `{"jsonrpc":"2.0","method":"exit"}`)
		if code := wait(t, cmd); code != 1 {
			t.Fatalf("exit code %d, want 1", code)
		}
	})
	t.Run("stdin closed", func(t *testing.T) {
		cmd, in, out, _ := agentlsProcess(t)
		send(t, in, initialize)
		receive(t, out)
		in.Close()
		if code := wait(t, cmd); code != 0 {
			t.Fatalf("exit code %d after EOF", code)
		}
	})
}

// TestConfigFlag: --config replaces the workspace's .agentls.yaml.
func TestConfigFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := dir + "/custom.yaml"
	if err := os.WriteFile(cfg, []byte("plan_mode:\n  default_active: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, in, out, stderr := agentlsProcess(t, "--config", cfg)
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://`+dir+`","capabilities":{}}}`)
	receive(t, out)
	send(t, in, `{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":{}}`)
	for {
		if got := receive(t, out); strings.Contains(got, `"id":2`) {
			if !strings.Contains(got, `"mode":"build"`) {
				t.Fatalf("newSession with default_active false = %s\n%s", got, stderr)
			}
			break
		}
	}
	in.Close()
	wait(t, cmd)
}

// TestStderrQuietByDefault: stderr takes warnings and errors (Neovim shows
// each stderr line as an [ERROR]); the log file keeps --log-level's info.
func TestStderrQuietByDefault(t *testing.T) {
	t.Parallel()
	defer slog.SetDefault(slog.Default())
	var stderr bytes.Buffer
	file := filepath.Join(t.TempDir(), "agentls.log")
	closeLog, err := setupLogging(&stderr, "warn", file, "info")
	if err != nil {
		t.Fatal(err)
	}
	slog.Info("an info line")
	slog.Warn("a warning")
	closeLog()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "an info line") || !strings.Contains(stderr.String(), "a warning") {
		t.Fatalf("stderr = %q", stderr.String())
	}
	if !strings.Contains(string(b), "an info line") || !strings.Contains(string(b), "a warning") {
		t.Fatalf("log file = %q", b)
	}
}

// startACPSession starts the real `agentls --config cfg acp`, connects
// client to it through the ACP SDK, initializes it and opens one session
// in dir. Its context ends after timeout or with the test.
func startACPSession(t *testing.T, cfg, dir string, client sdk.Client, timeout time.Duration) (*exec.Cmd, io.WriteCloser, *sdk.ClientSideConnection, context.Context, *sdk.NewSessionResponse, *bytes.Buffer) {
	t.Helper()
	cmd, in, out, stderr := agentlsProcess(t, "--config", cfg, "acp")
	conn := sdk.NewClientSideConnection(client, in, out)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v; stderr:\n%s", err, stderr)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v; stderr:\n%s", err, stderr)
	}
	return cmd, in, conn, ctx, &sess, stderr
}

// interleaved records what several writers write, in the order written.
type interleaved struct {
	mu  sync.Mutex
	all bytes.Buffer
}

// to is a writer that writes to w and to the record.
func (r *interleaved) to(w io.Writer) io.Writer { return recorder{r, w} }

// String is everything written so far.
func (r *interleaved) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.all.String()
}

type recorder struct {
	r *interleaved
	w io.Writer
}

func (c recorder) Write(b []byte) (int, error) {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	c.r.all.Write(b)
	return c.w.Write(b)
}
