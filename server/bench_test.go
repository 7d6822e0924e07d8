package server_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server"
)

// twentyCalls is one model step asking for 20 read-only tool calls on the Go
// standard library tree at src, then a final answer.
func twentyCalls(src string) string {
	var b strings.Builder
	b.WriteString("name: bench\nsteps:\n  - tool_calls:\n")
	calls := []string{
		`{name: ls, args: {path: "."}}`,
		`{name: ls, args: {path: "net/http", depth: 2}}`,
		`{name: glob, args: {pattern: "net/http/*.go"}}`,
		`{name: glob, args: {pattern: "**/doc.go", path: "crypto"}}`,
		`{name: grep, args: {pattern: "func NewServeMux", path: "net/http"}}`,
		`{name: grep, args: {pattern: "ErrNotExist", path: "os", max_results: 20}}`,
		`{name: grep, args: {pattern: "context\\.WithCancel\\(", path: "net", include: "*.go"}}`,
		`{name: read, args: {path: "net/http/server.go", limit: 200}}`,
		`{name: read, args: {path: "fmt/print.go"}}`,
		`{name: read, args: {path: "strings/strings.go", offset: 100, limit: 100}}`,
	}
	for i := 0; i < 20; i++ {
		call := strings.ReplaceAll(calls[i%len(calls)], `path: "`, `path: "`+src+"/")
		fmt.Fprintf(&b, "      - %s\n", strings.ReplaceAll(call, `/."`, `"`))
	}
	b.WriteString("  - text: done\n")
	return b.String()
}

// BenchmarkScriptedTurn20Calls measures a whole turn of 20 tool calls through
// the server and an lspclient.Client, over real pipes, on $GOROOT/src.
func BenchmarkScriptedTurn20Calls(b *testing.B) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command to find GOROOT")
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	if _, err := os.Stat(filepath.Join(src, "net", "http")); err != nil {
		b.Skip("no GOROOT/src")
	}
	sc, err := scripted.Parse([]byte(twentyCalls(src)))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var model *scripted.Provider
	opts := server.Options{
		Getenv: homeOnly(b),
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			return providerFunc(func(ctx context.Context, r llm.Request, f func(llm.Event)) (llm.Response, error) {
				return model.Complete(ctx, r, f)
			}), nil
		},
	}
	// Sessions are written under the first folder's .agentls: a temp folder
	// comes first so GOROOT/src is only read (the script uses absolute paths).
	tmp := b.TempDir()
	ed, err := lspclient.Start(ctx, tmp, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return server.Serve(ctx, rwc, opts)
	}, lspclient.Handlers{})
	if err != nil {
		b.Fatal(err)
	}
	defer ed.Close()
	folders := []map[string]string{{"uri": "file://" + tmp, "name": "tmp"}, {"uri": "file://" + src, "name": "src"}}
	if err := ed.Call(ctx, "initialize", map[string]any{"workspaceFolders": folders, "capabilities": map[string]any{}}, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		model = scripted.New(sc)
		var s agentproto.Session
		if err := ed.Call(ctx, "agent/newSession", map[string]any{"mode": "plan"}, &s); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		var r agentproto.PromptResult
		if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "explore"}, &r); err != nil || r.StopReason != "end_turn" {
			b.Fatalf("prompt = %+v, %v", r, err)
		}
	}
}

type providerFunc func(context.Context, llm.Request, func(llm.Event)) (llm.Response, error)

func (f providerFunc) Complete(ctx context.Context, r llm.Request, ev func(llm.Event)) (llm.Response, error) {
	return f(ctx, r, ev)
}

// BenchmarkInitialize measures a server's start to its initialize result.
func BenchmarkInitialize(b *testing.B) {
	dir := b.TempDir()
	getenv := homeOnly(b)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		ed, err := lspclient.Start(ctx, dir, func(ctx context.Context, rwc io.ReadWriteCloser) error {
			return server.Serve(ctx, rwc, server.Options{Getenv: getenv})
		}, lspclient.Handlers{})
		if err != nil {
			b.Fatal(err)
		}
		if err := ed.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + dir, "capabilities": map[string]any{}}, nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = ed.Close()
		b.StartTimer()
	}
}
