package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestLanguageToolsRefuseUnservedTypes: a code or rename call on a file
// whose type no source serves fails with a message naming the file's type
// and the types served, and pointing at grep and read; a served file
// passes that check.
func TestLanguageToolsRefuseUnservedTypes(t *testing.T) {
	e := newIntelFake(t) // serves go only
	for name, text := range map[string]string{"c.py": "x = 1\n", "d.ts": "let x = 1\n", "Makefile": "all:\n"} {
		if err := os.WriteFile(filepath.Join(e.ws.Root(), name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.setMode(agentproto.ModeBuild)
	tests := []struct {
		tool Tool
		args string
		want []string // "" rows: the call passes the type check
	}{
		{codeTool, `{"op":"diagnostics","path":"c.py"}`, []string{"no language server serves c.py (python files; served: go (.go)); use grep and read"}},
		{codeTool, `{"op":"symbols","path":"d.ts"}`, []string{"d.ts (typescript files; served: go (.go))"}},
		{codeTool, `{"op":"definition","path":"c.py","line":1,"symbol":"x"}`, []string{"c.py (python files"}},
		{codeTool, `{"op":"hover","path":"b.txt","line":1,"symbol":"x"}`, []string{"b.txt (.txt files; served: go (.go))"}},
		{codeTool, `{"op":"references","path":"Makefile","line":1,"symbol":"all"}`, []string{"Makefile (files of this type; served: go (.go))"}},
		{renameTool, `{"path":"d.ts","line":1,"symbol":"x","new_name":"y"}`, []string{"no language server serves d.ts (typescript files; served: go (.go))"}},
		{codeTool, `{"op":"hover","path":"a.go","line":3,"symbol":"Hello"}`, nil},
	}
	for _, tc := range tests {
		res := call(t, tc.tool, e, tc.args)
		if tc.want == nil {
			if !res.Success {
				t.Errorf("%s %s = %s, want success", tc.tool.Spec().Name, tc.args, res.JSON())
			}
			continue
		}
		if res.Success {
			t.Errorf("%s %s succeeded, want refused", tc.tool.Spec().Name, tc.args)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(res.Error, w) {
				t.Errorf("%s %s = %q, want it to contain %q", tc.tool.Spec().Name, tc.args, res.Error, w)
			}
		}
	}
	if !strings.Contains(e.file("d.ts"), "let x") {
		t.Fatal("a refused rename changed d.ts")
	}
}

// TestWithServedTypes: the description gains one sentence naming the types.
func TestWithServedTypes(t *testing.T) {
	got := WithServedTypes("Rename `symbol` everywhere.\n", []string{"c", "go"})
	want := "Rename `symbol` everywhere. Only for these file types: c (.c .cc .cpp .cxx .h .hh .hpp); go (.go)."
	if got != want {
		t.Fatalf("WithServedTypes = %q, want %q", got, want)
	}
}
