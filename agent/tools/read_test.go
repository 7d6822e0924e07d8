package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

func TestRead(t *testing.T) {
	t.Parallel()
	const text = "package main\n\nfunc main() {}\n"
	const plan = "---\ntitle: T\nstatus: draft\ncreated_at: 2025-01-15T10:30:00Z\n---\n# Goal\n"
	tests := []struct {
		name      string
		args      string
		mode      agentproto.Mode
		want      ReadOutput
		wantError []string
	}{
		{
			name: "whole file",
			args: `{"path":"main.go"}`,
			want: ReadOutput{Path: "main.go", Content: "     1\tpackage main\n     2\t\n     3\tfunc main() {}\n",
				StartLine: 1, EndLine: 3, TotalLines: 3, Hash: workspace.Hash(text)},
		},
		{
			name: "window",
			args: `{"path":"./main.go","offset":2,"limit":1}`,
			want: ReadOutput{Path: "main.go", Content: "     2\t\n", StartLine: 2, EndLine: 2, TotalLines: 3,
				Truncated: true, Hash: workspace.Hash(text), Continue: "more lines follow: continue at line 3 (offset 3)"},
		},
		{
			name: "plan file in plan mode",
			args: `{"path":"plans/a.plan","limit":1}`,
			mode: agentproto.ModePlan,
			want: ReadOutput{Path: "plans/a.plan", Content: "     1\t---\n", StartLine: 1, EndLine: 1, TotalLines: 6,
				Truncated: true, Hash: workspace.Hash(plan), Continue: "more lines follow: continue at line 2 (offset 2)"},
		},
		{name: "missing file", args: `{"path":"nope.go"}`, wantError: []string{"nope.go does not exist"}},
		{name: "directory", args: `{"path":"plans"}`, wantError: []string{"plans is a directory", "ls"}},
		{name: "outside", args: `{"path":"../etc/passwd"}`, wantError: []string{"outside the workspace"}},
		{name: "absolute outside", args: `{"path":"/etc/passwd"}`, wantError: []string{"outside the workspace"}},
		{name: "no path", args: `{}`, wantError: []string{"path is required"}},
		{name: "bad JSON", args: `{"path":`, wantError: []string{"invalid arguments"}},
		{name: "wrong type", args: `{"path":3}`, wantError: []string{"invalid arguments"}},
		{name: "unknown field", args: `{"file_path":"main.go"}`, wantError: []string{"invalid arguments", "file_path"}},
		{name: "negative offset", args: `{"path":"main.go","offset":-1}`, wantError: []string{"must not be negative"}},
		{name: "offset past end", args: `{"path":"main.go","offset":9}`, wantError: []string{"past the end"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, map[string]string{"main.go": text, "plans/a.plan": plan})
			if tt.mode != "" {
				env.setMode(tt.mode)
			}
			r := call(t, readTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			var got ReadOutput
			value(t, r, &got)
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestReadByteCap: a window larger than MaxReadBytes ends at the last whole
// line that fits and says where to continue; reading on from there works.
func TestReadByteCap(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", 999) + "\n" // 1000 bytes, 1007 with the number
	text := strings.Repeat(line, 200)       // 200 KB
	env := newFake(t, map[string]string{"big.txt": text})
	var got ReadOutput
	value(t, call(t, readTool, env, `{"path":"big.txt"}`), &got)
	if len(got.Content) > MaxReadBytes || !got.Truncated || got.TotalLines != 200 {
		t.Fatalf("content %d bytes (cap %d), truncated %v, total %d", len(got.Content), MaxReadBytes, got.Truncated, got.TotalLines)
	}
	wantEnd := MaxReadBytes / 1007
	if got.EndLine != wantEnd || strings.Count(got.Content, "\n") != wantEnd {
		t.Fatalf("end line %d (%d lines), want %d", got.EndLine, strings.Count(got.Content, "\n"), wantEnd)
	}
	want := fmt.Sprintf("output capped at 50 KB: continue at line %d (offset %d)", wantEnd+1, wantEnd+1)
	if got.Continue != want {
		t.Fatalf("continue = %q, want %q", got.Continue, want)
	}
	var next ReadOutput
	value(t, call(t, readTool, env, fmt.Sprintf(`{"path":"big.txt","offset":%d}`, wantEnd+1)), &next)
	if next.StartLine != wantEnd+1 || !strings.HasPrefix(next.Content, fmt.Sprintf("%6d\t", wantEnd+1)) {
		t.Fatalf("reading on: start %d, content %q…", next.StartLine, next.Content[:min(20, len(next.Content))])
	}
}

func TestReadSeesEditorBuffer(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{"a.txt": "disk\n"})
	env.ws.Overlay().Open(env.path("a.txt"), 1, "buffer\n")
	var got ReadOutput
	value(t, call(t, readTool, env, `{"path":"a.txt"}`), &got)
	if got.Content != "     1\tbuffer\n" || got.Hash != workspace.Hash("buffer\n") {
		t.Errorf("read = %+v, want the editor's text", got)
	}
}
