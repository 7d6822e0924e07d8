package langpool

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/realservers"
	"github.com/agentls/agentls/internal/testcache"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/workspace"
)

func TestMain(m *testing.M) {
	sandbox.Main() // the test binary is the sandbox's launcher
	if os.Getenv(fakeServerEnv) != "" {
		runFakeServer() // fakeserver_test.go: the test binary as a language server
		os.Exit(0)
	}
	// The pool's logs stay out of the test output unless AGENTLS_TEST_LOG is set.
	if os.Getenv("AGENTLS_TEST_LOG") == "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(testcache.Run(m)) // the language servers' caches go to a temporary folder
}

const goMod = "module example.com/m\n\ngo 1.22\n"

// mainGo has a problem from the start (an unused variable) and a use of
// Greet, declared in greet.go.
const mainGo = `package main

import "fmt"

func main() {
	unused := 1
	fmt.Println(Greet("x"))
}
`

const greetGo = `package main

// Greet greets.
func Greet(name string) string { return "hello " + name }
`

// newPool is a pool over a fresh Go module served by the real gopls.
func newPool(t *testing.T, cmd []string) (*Pool, *workspace.Workspace) {
	t.Helper()
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.LSPServer{"go": {Command: cmd}}
	return poolOver(t, map[string]string{"go.mod": goMod, "main.go": mainGo, "greet.go": greetGo}, cfg)
}

// poolOver is a pool with cfg over a fresh workspace holding files.
func poolOver(t *testing.T, files map[string]string, cfg config.Config) (*Pool, *workspace.Workspace) {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Workspace: ws, Config: cfg, Getenv: func(string) string { return "" }, CacheDir: t.TempDir()})
	t.Cleanup(p.Close)
	return p, ws
}

func settle(t *testing.T, p *Pool, files ...string) map[string][]intel.Diagnostic {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// The first question starts the server and loads the project: a
	// generous budget for a loaded CI machine (quiet ends it anyway).
	snap, settled, err := intel.Settle(ctx, p, files, 3*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !settled {
		t.Fatalf("diagnostics did not settle: %v", snap.Files)
	}
	return snap.Files
}

func TestGoplsDiagnosticsFollowTheOverlay(t *testing.T) {
	p, ws := newPool(t, []string{realservers.Gopls(t)})
	main := filepath.Join(ws.Root(), "main.go")
	if p.Serves(filepath.Join(ws.Root(), "x.txt")) || !p.Serves(main) {
		t.Fatal("the pool should serve .go files only")
	}
	before := settle(t, p, main)[main]
	if len(before) != 1 || !strings.Contains(before[0].Message, "unused") || before[0].Source == "" {
		t.Fatalf("baseline = %+v, want gopls's one unused-variable problem", before)
	}
	// An applied edit that the editor has not saved: the overlay, not the disk.
	broken := strings.Replace(mainGo, `Greet("x")`, `Greet(42)`, 1)
	ws.Overlay().SetApplied(main, broken)
	after := settle(t, p, main)[main]
	fresh := intel.New(before, after)
	if len(fresh) != 1 || fresh[0].Range.Start.Line != 6 || fresh[0].Severity != intel.SeverityError {
		t.Fatalf("new problems = %+v (all: %+v), want the type error on line 7 only", fresh, after)
	}
	ws.Overlay().SetApplied(main, mainGo)
	if fixed := intel.New(before, settle(t, p, main)[main]); len(fixed) != 0 {
		t.Fatalf("after the fix, new problems = %+v", fixed)
	}
	// An edit that changes no problem still settles within the default
	// budget (the server publishes for the new version).
	ws.Overlay().SetApplied(main, "// A comment.\n"+mainGo)
	snap, settled, err := intel.Settle(context.Background(), p, []string{main}, intel.DefaultBudget)
	if err != nil || !settled || len(intel.New(intel.Shift(before, mainGo, "// A comment.\n"+mainGo), snap.Files[main])) != 0 {
		t.Fatalf("a comment: settled %v, err %v, problems %+v", settled, err, snap.Files[main])
	}
}

func TestGoplsDefinitionAndSymbols(t *testing.T) {
	p, ws := newPool(t, []string{realservers.Gopls(t)})
	main := filepath.Join(ws.Root(), "main.go")
	settle(t, p, main)
	ctx := context.Background()
	// Greet on line 7 (index 6), column of "Greet" in "\tfmt.Println(Greet(".
	locs, err := p.Definition(ctx, main, workspace.Position{Line: 6, Character: 13})
	if err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || filepath.Base(locs[0].Path) != "greet.go" || locs[0].Range.Start.Line != 3 {
		t.Fatalf("definition = %+v, want greet.go line 4", locs)
	}
	refs, err := p.References(ctx, main, workspace.Position{Line: 6, Character: 13})
	if err != nil || len(refs) != 2 {
		t.Fatalf("references = %+v, %v; want the declaration and the use", refs, err)
	}
	hover, err := p.Hover(ctx, main, workspace.Position{Line: 6, Character: 13})
	if err != nil || !strings.Contains(hover, "func Greet(name string) string") {
		t.Fatalf("hover = %q, %v", hover, err)
	}
	syms, err := p.Symbols(ctx, filepath.Join(ws.Root(), "greet.go"), "")
	if err != nil || len(syms) != 1 || syms[0].Name != "Greet" || syms[0].Kind != "function" {
		t.Fatalf("symbols = %+v, %v", syms, err)
	}
	wsyms, err := p.Symbols(ctx, "", "Greet")
	if err != nil || len(wsyms) == 0 || wsyms[0].Name != "Greet" || filepath.Base(wsyms[0].Location.Path) != "greet.go" {
		t.Fatalf("workspace symbols = %+v, %v", wsyms, err)
	}
	edits, err := p.Rename(ctx, main, workspace.Position{Line: 6, Character: 13}, "Welcome")
	if err != nil || len(edits) != 2 {
		t.Fatalf("rename = %+v, %v; want edits in both files", edits, err)
	}
	if data, _ := os.ReadFile(filepath.Join(ws.Root(), "greet.go")); !strings.Contains(string(data), "func Greet") {
		t.Fatal("a rename's edits were applied by the pool")
	}
	if st := p.Status(); !strings.Contains(statusOf(st, "go"), "running") {
		t.Fatalf("status = %+v, want go running", st)
	}
}

func statusOf(st []agentproto.LanguageServing, t string) string {
	for _, s := range st {
		if s.FileType == t {
			return s.Source + " " + s.Detail
		}
	}
	return ""
}

// TestServerCannotWriteTheWorkspace: a pool server runs in the sandbox
// profile lsp: writing into the workspace fails, its cache folder works.
func TestServerCannotWriteTheWorkspace(t *testing.T) {
	gopls := realservers.Gopls(t)
	probe := `touch pwned 2>/dev/null; touch "$XDG_CACHE_HOME/cache-ok" 2>/dev/null; exec "$0"`
	p, ws := newPool(t, []string{"/bin/sh", "-c", probe, gopls})
	if sandbox.Detect().Status(sandbox.ModeAuto).Confines() == false {
		t.Skip("no sandbox layer on this machine")
	}
	main := filepath.Join(ws.Root(), "main.go")
	settle(t, p, main)
	if _, err := os.Stat(filepath.Join(ws.Root(), "pwned")); err == nil {
		t.Fatal("a pool language server wrote into the workspace")
	}
	matches, _ := filepath.Glob(filepath.Join(p.opts.CacheDir, "*", "go", "cache-ok"))
	if len(matches) != 1 {
		t.Fatalf("the server could not write its own cache folder (found %v)", matches)
	}
}

// TestIdleServerStops: a server unused for IdleAfter stops, and starts
// again at the next question.
func TestIdleServerStops(t *testing.T) {
	gopls := realservers.Gopls(t)
	p, ws := newPool(t, []string{gopls})
	p.Close()
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.LSPServer{"go": {Command: []string{gopls}}}
	stopped := make(chan string, 4)
	p = New(Options{Workspace: ws, Config: cfg, Getenv: func(string) string { return "" }, CacheDir: t.TempDir(), IdleAfter: 300 * time.Millisecond,
		idleStopped: func(ft string) { stopped <- ft }})
	t.Cleanup(p.Close)
	main := filepath.Join(ws.Root(), "main.go")
	settle(t, p, main)
	// Under load settle itself can leave the server idle for longer than
	// IdleAfter between two of its questions: it then stops and settle
	// starts it again. What counts is the stop that leaves none running.
	timeout := time.After(30 * time.Second)
	for stoppedAll := false; !stoppedAll; {
		select {
		case ft := <-stopped:
			if ft != "go" {
				t.Fatalf("stopped %q; want the go server", ft)
			}
			stoppedAll = len(p.Running()) == 0
		case <-timeout:
			t.Fatalf("the idle server did not stop (running %v)", p.Running())
		}
	}
	if again := settle(t, p, main)[main]; len(again) != 1 {
		t.Fatalf("after the idle stop, diagnostics = %+v: the server did not start again", again)
	}
}

func TestDefaultsFoundOnPath(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "gopls")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmds := commands(config.LSP{Servers: map[string]config.LSPServer{"rust": {Command: nil}}}, dir)
	if c := cmds["go"]; len(c.argv) != 1 || c.argv[0] != prog || c.origin != "PATH" {
		t.Fatalf("go = %+v, want gopls found on PATH", c)
	}
	if c := cmds["typescript"]; c.argv != nil || !strings.Contains(c.why, "not found") {
		t.Fatalf("typescript = %+v, want not found", c)
	}
	if c := cmds["rust"]; c.argv != nil || !strings.Contains(c.why, "turned off") {
		t.Fatalf("rust = %+v, want turned off by lsp.servers", c)
	}
}

// TestWorkspaceSymbolsStartTheProjectsServer: a workspace query with no
// server running starts the one whose project marker (go.mod) is there.
func TestWorkspaceSymbolsStartTheProjectsServer(t *testing.T) {
	p, _ := newPool(t, []string{realservers.Gopls(t)})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var syms []intel.Symbol
	var err error
	// gopls answers once it has loaded the module: ask until it does.
	for len(syms) == 0 && err == nil && ctx.Err() == nil {
		syms, err = p.Symbols(ctx, "", "Greet")
	}
	if err != nil || len(syms) == 0 || syms[0].Name != "Greet" {
		t.Fatalf("workspace symbols = %+v, %v", syms, err)
	}
}

// cleanTypeScriptFile is a pool with typescript-language-server over a
// strict project whose a.ts holds text, and a.ts's path, once its
// diagnostics settled with no problem.
func cleanTypeScriptFile(t *testing.T, text string) (*Pool, *workspace.Workspace, string) {
	t.Helper()
	tsls := realservers.TypeScriptLanguageServer(t)
	files := map[string]string{"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}}`, "a.ts": text}
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.LSPServer{"typescript": {Command: []string{tsls, "--stdio"}}}
	p, ws := poolOver(t, files, cfg)
	a := filepath.Join(ws.Root(), "a.ts")
	if before := settle(t, p, a)[a]; len(before) != 0 {
		t.Fatalf("a clean file has problems: %+v", before)
	}
	return p, ws, a
}

// TestTypeScriptCleanFileStaysClean: typescript-language-server publishes
// nothing after an edit that leaves a clean file clean, so the file stayed
// pending until the settle budget ran out (settled: false after every
// such edit). The pool asks tsserver's own checks instead (clean.go): the
// edit settles well within the budget, with no problem; an edit that then
// breaks the file still gets its problem from the publishes, and one that
// mends it settles clean again.
func TestTypeScriptCleanFileStaysClean(t *testing.T) {
	const clean = "export function greet(name: string): string {\n  return \"hello \" + name;\n}\n\nconsole.log(greet(\"x\"));\n"
	p, ws, a := cleanTypeScriptFile(t, clean)
	steps := []struct {
		name, text  string
		wantProblem bool
	}{
		{"a clean edit", strings.Replace(clean, `"x"`, `"y"`, 1), false},
		{"another clean edit", strings.Replace(clean, `"hello "`, `"hi "`, 1), false},
		{"an edit that breaks it", strings.Replace(clean, `greet("x")`, `greet(42)`, 1), true},
		{"an edit that mends it", clean, false},
		{"a clean edit after the mend", strings.Replace(clean, `"x"`, `"z"`, 1), false},
	}
	for _, st := range steps {
		ws.Overlay().SetApplied(a, st.text)
		start := time.Now()
		// Budget: the settle_ms default (1.5 s) plus room for a loaded
		// machine; before the check, a clean edit never settled.
		snap, settled, err := intel.Settle(context.Background(), p, []string{a}, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got := snap.Files[a]
		t.Logf("%s: settled %v in %v, %d problems", st.name, settled, time.Since(start).Round(time.Millisecond), len(got))
		if !settled {
			t.Fatalf("%s: did not settle: %+v", st.name, got)
		}
		if (len(got) != 0) != st.wantProblem {
			t.Fatalf("%s: problems %+v, want a problem: %v", st.name, got, st.wantProblem)
		}
	}
}

// TestTypeScriptDiagnostics: the pool serves TypeScript with the real
// typescript-language-server (it publishes without versions: a change
// is pending until its next publish).
func TestTypeScriptDiagnostics(t *testing.T) {
	const text = "export function greet(name: string): string {\n  return \"hello \" + name;\n}\n\nconst n: number = 1;\nconsole.log(greet(\"x\"), n);\n"
	p, ws, a := cleanTypeScriptFile(t, text)
	ws.Overlay().SetApplied(a, strings.Replace(text, `greet("x")`, `greet(42)`, 1))
	after := settle(t, p, a)[a]
	if len(after) != 1 || after[0].Range.Start.Line != 5 || after[0].Severity != intel.SeverityError || !strings.Contains(after[0].Message, "number") {
		t.Fatalf("after the edit: %+v, want the type error on line 6", after)
	}
	locs, err := p.Definition(context.Background(), a, workspace.Position{Line: 5, Character: 12})
	if err != nil || len(locs) != 1 || locs[0].Range.Start.Line != 0 {
		t.Fatalf("definition = %+v, %v; want greet on line 1", locs, err)
	}
}
