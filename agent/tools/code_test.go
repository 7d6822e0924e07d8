package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// fakeIntel is a language-intelligence source that answers from fixed
// data and records the positions it was asked about.
type fakeIntel struct {
	root    string
	asked   []workspace.Position
	locs    []intel.Location
	diags   map[string][]intel.Diagnostic
	renames intel.FileEdits
}

func (f *fakeIntel) Serves(path string) bool { return strings.HasSuffix(path, ".go") }
func (f *fakeIntel) Diagnostics(context.Context, []string) (intel.Snapshot, error) {
	return intel.Snapshot{Files: f.diags}, nil
}
func (f *fakeIntel) Definition(_ context.Context, _ string, pos workspace.Position) ([]intel.Location, error) {
	f.asked = append(f.asked, pos)
	return f.locs, nil
}
func (f *fakeIntel) References(ctx context.Context, path string, pos workspace.Position) ([]intel.Location, error) {
	return f.Definition(ctx, path, pos)
}
func (f *fakeIntel) Hover(context.Context, string, workspace.Position) (string, error) {
	return "func Hello() string", nil
}
func (f *fakeIntel) Symbols(context.Context, string, string) ([]intel.Symbol, error) { return nil, nil }
func (f *fakeIntel) Rename(context.Context, string, workspace.Position, string) (intel.FileEdits, error) {
	return f.renames, nil
}
func (f *fakeIntel) Status() []agentproto.LanguageServing {
	return []agentproto.LanguageServing{{FileType: "go", Source: "pool"}}
}

// intelFake is a fakeEnv with language intelligence.
type intelFake struct {
	*fakeEnv
	src *fakeIntel
}

func (e intelFake) LanguageIntel() intel.Source { return e.src }

func newIntelFake(t *testing.T) intelFake {
	f := newFake(t, map[string]string{"a.go": "package a\n\nfunc Hello() string { return \"é\" + hello }\n", "b.txt": "x\n"})
	return intelFake{fakeEnv: f, src: &fakeIntel{root: f.ws.Root()}}
}

func TestCodeFindsTheColumnFromTheSymbol(t *testing.T) {
	e := newIntelFake(t)
	e.src.locs = []intel.Location{{Path: filepath.Join(e.ws.Root(), "a.go"), Range: workspace.Range{Start: workspace.Position{Line: 2, Character: 5}}}}
	res := call(t, codeTool, e, `{"op":"definition","path":"a.go","line":3,"symbol":"hello"}`)
	if !res.Success {
		t.Fatalf("definition failed: %s", res.JSON())
	}
	// The whole word "hello" (not the "Hello" before it) starts at byte 36,
	// UTF-16 unit 35 (é is 2 bytes, 1 unit).
	if len(e.src.asked) != 1 || e.src.asked[0] != (workspace.Position{Line: 2, Character: 35}) {
		t.Fatalf("asked at %+v, want line 2 character 35 (the whole word, in UTF-16)", e.src.asked)
	}
	if !strings.Contains(res.JSON(), `"path":"a.go","line":3,"text":"func Hello() string { return \"é\" + hello }"`) {
		t.Fatalf("result %s lacks the relative location with its text", res.JSON())
	}
}

func TestCodeFailures(t *testing.T) {
	e := newIntelFake(t)
	tests := []struct{ args, want string }{
		{`{"op":"definition","path":"a.go","line":3,"symbol":"nope"}`, `"nope" is not on line 3`},
		{`{"op":"definition","path":"a.go","line":30,"symbol":"x"}`, "has no line 30"},
		{`{"op":"hover","path":"b.txt","line":1,"symbol":"x"}`, "no language server serves b.txt"},
		{`{"op":"references","path":"a.go"}`, "needs path, line (from 1) and symbol"},
		{`{"op":"symbols"}`, "needs a path"},
		{`{"op":"rename"}`, `unknown op "rename"`},
		{`{"op":"definition","path":"../x.go","line":1,"symbol":"x"}`, "path:"},
	}
	for _, tc := range tests {
		res := call(t, codeTool, e, tc.args)
		if res.Success || !strings.Contains(res.Error, tc.want) {
			t.Errorf("code %s = %s, want an error containing %q", tc.args, res.JSON(), tc.want)
		}
	}
	if res := call(t, codeTool, e.fakeEnv, `{"op":"hover","path":"a.go","line":1,"symbol":"a"}`); res.Success || !strings.Contains(res.Error, "no language server") {
		t.Errorf("code without a source = %s", res.JSON())
	}
}

func TestCodeDiagnosticsCapped(t *testing.T) {
	e := newIntelFake(t)
	abs := filepath.Join(e.ws.Root(), "a.go")
	var ds []intel.Diagnostic
	for i := range 30 {
		ds = append(ds, intel.Diagnostic{Range: workspace.Range{Start: workspace.Position{Line: uint32(i)}}, Severity: intel.SeverityWarning, Message: "w"})
	}
	ds = append(ds, intel.Diagnostic{Range: workspace.Range{Start: workspace.Position{Line: 40}}, Severity: intel.SeverityError, Message: "broken", Source: "compiler"})
	e.src.diags = map[string][]intel.Diagnostic{abs: ds}
	e.cfg.LSP.SettleMs = 300
	res := call(t, codeTool, e, `{"op":"diagnostics","path":"a.go"}`)
	var out struct {
		Result CodeOutput `json:"result"`
	}
	if err := json.Unmarshal([]byte(res.JSON()), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Result.Problems) != MaxCodeItems || !out.Result.Truncated || out.Result.Total != 31 {
		t.Fatalf("diagnostics = %d problems, truncated %v, total %d; want %d, true, 31", len(out.Result.Problems), out.Result.Truncated, out.Result.Total, MaxCodeItems)
	}
	if p := out.Result.Problems[0]; p.Severity != "error" || p.Path != "a.go" || p.Line != 41 {
		t.Fatalf("first problem %+v, want the error first, relative, line from 1", p)
	}
}

// TestRenameIsBuildOnly: rename goes through Env.Apply, whose guard check
// refuses it in plan mode; in build mode the files change.
func TestRenameIsBuildOnly(t *testing.T) {
	e := newIntelFake(t)
	abs := filepath.Join(e.ws.Root(), "a.go")
	e.src.renames = intel.FileEdits{abs: {{Range: workspace.Range{Start: workspace.Position{Line: 2, Character: 5}, End: workspace.Position{Line: 2, Character: 10}}, NewText: "Greet"}}}
	args := `{"path":"a.go","line":3,"symbol":"Hello","new_name":"Greet"}`
	e.setMode(agentproto.ModePlan)
	if r := e.g.CheckCall(e.State(), "rename", json.RawMessage(args)); r == nil {
		t.Fatal("the guard allowed rename in plan mode")
	}
	res := call(t, renameTool, e, args) // past the first check: the last one refuses
	if res.Success || res.Refusal == nil || strings.Contains(e.file("a.go"), "Greet") {
		t.Fatalf("rename in plan mode = %s; file %q", res.JSON(), e.file("a.go"))
	}
	e.setMode(agentproto.ModeBuild)
	res = call(t, renameTool, e, args)
	if !res.Success || !strings.Contains(e.file("a.go"), "func Greet()") {
		t.Fatalf("rename in build mode = %s; file %q", res.JSON(), e.file("a.go"))
	}
}

// TestRenameReachingOutsideIsRefusedWhole: a server's rename that would
// change a file outside the workspace, or agentls's own state, changes
// nothing at all.
func TestRenameReachingOutsideIsRefusedWhole(t *testing.T) {
	edit := []workspace.TextEdit{{Range: workspace.Range{Start: workspace.Position{Line: 0}, End: workspace.Position{Line: 0, Character: 7}}, NewText: "pwned"}}
	tests := []struct{ name, other, want string }{
		{"outside the workspace", filepath.Join(t.TempDir(), "x.go"), "outside the workspace"},
		{"agentls's state", ".agentls/chats/s.chat", ".agentls"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newIntelFake(t)
			writeFile(t, filepath.Join(e.ws.Root(), ".agentls", "chats", "s.chat"), "package state\n")
			other := tc.other
			if !filepath.IsAbs(other) {
				other = filepath.Join(e.ws.Root(), other)
			} else {
				writeFile(t, other, "package x\n")
			}
			a := filepath.Join(e.ws.Root(), "a.go")
			e.src.renames = intel.FileEdits{a: edit, other: edit}
			res := call(t, renameTool, e, `{"path":"a.go","line":3,"symbol":"Hello","new_name":"Greet"}`)
			if res.Success || !strings.Contains(res.JSON(), tc.want) {
				t.Fatalf("rename = %s, want refused mentioning %q", res.JSON(), tc.want)
			}
			if strings.Contains(e.file("a.go"), "pwned") {
				t.Fatal("a refused rename changed a.go")
			}
			if b, _ := os.ReadFile(other); strings.Contains(string(b), "pwned") {
				t.Fatalf("a refused rename changed %s", other)
			}
		})
	}
}

// TestCutBytes: a hover or an excerpt is cut at a character boundary, never
// inside one (a half character would reach the model and the faces as
// U+FFFD, or break a client's JSON decoding of invalid UTF-8).
func TestCutBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"ab€", 3, "ab"},
		{"ab€", 4, "ab"},
		{"ab€", 5, "ab€"},
		{"𝄞", 2, ""},
	} {
		if got := cutBytes(c.in, c.n); got != c.want || !utf8.ValidString(got) {
			t.Errorf("cutBytes(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
