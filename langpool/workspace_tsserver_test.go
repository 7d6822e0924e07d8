package langpool

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/realservers"
	"github.com/agentls/agentls/workspace"
)

// TestTypeScriptServerDoesNotRunTheRepositorysTsserver: "a repository
// cannot choose the programs agentls starts" (docs/language-intel.md,
// Trust), and the pool serves the code tool in plan mode, before the user
// trusted or approved anything. typescript-language-server, started with
// no tsserver path, runs the TypeScript it finds in the workspace first
// (node_modules/typescript/lib, .yarn/sdks/typescript/lib,
// .vscode/pnpify/typescript/lib, in the root or any folder above it), as a
// Yarn PnP project's committed .yarn/sdks/typescript/lib/tsserver.js. The
// pool names the tsserver itself (initializationOptions.tsserver.path: the
// one beside the server it resolved, never the workspace's), so the
// repository's file never runs.
func TestTypeScriptServerDoesNotRunTheRepositorysTsserver(t *testing.T) {
	tsls := realservers.TypeScriptLanguageServer(t)
	root := t.TempDir()
	files := map[string]string{
		"tsconfig.json":                      `{"compilerOptions": {"strict": true, "noEmit": true}}`,
		"a.ts":                               "export const n: number = \"not a number\";\n",
		".yarn/sdks/typescript/package.json": `{"name": "typescript", "version": "5.9.3"}`,
		// The repository's "tsserver": it leaves a mark where it can write
		// (its cache folder: the workspace is read-only to it), then exits.
		".yarn/sdks/typescript/lib/tsserver.js": "require('fs').writeFileSync(require('path').join(process.env.XDG_CACHE_HOME || require('os').tmpdir(), 'repository-tsserver-ran'), 'ran');\nprocess.exit(1);\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.LSPServer{"typescript": {Command: []string{tsls, "--stdio"}}}
	cache := t.TempDir()
	p := New(Options{Workspace: ws, Config: cfg, Getenv: func(string) string { return "" }, CacheDir: cache})
	t.Cleanup(p.Close)

	ran := func() string {
		var found string
		_ = filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == "repository-tsserver-ran" {
				found = path
			}
			return nil
		})
		return found
	}
	// Questions about a.ts (plan mode's code tool asks so) until a
	// tsserver answered them: the server started its tsserver by then.
	a := filepath.Join(root, "a.ts")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if at := ran(); at != "" {
			t.Fatalf("the repository's .yarn/sdks/typescript/lib/tsserver.js ran when the pool started typescript-language-server (its mark: %s)", at)
		}
		snap, err := p.Diagnostics(ctx, []string{a})
		if err == nil && !snap.Pending && len(snap.Files[a]) > 0 {
			return // a tsserver answered, not the repository's
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("no tsserver answered about a.ts: %+v, %v", snap.Files, err)
		}
	}
}

// TestTsserverIsTheOneBesideTheServer: the tsserver named to
// typescript-language-server is the TypeScript Node resolves from the
// server's own script (through its bin symlink), else the tsserver on
// PATH; with neither, none is named.
func TestTsserverIsTheOneBesideTheServer(t *testing.T) {
	dir := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(target, rel string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk("a/node_modules/typescript-language-server/lib/cli.mjs")
	want := mk("a/node_modules/typescript/lib/tsserver.js")
	prog := link("../typescript-language-server/lib/cli.mjs", "a/node_modules/.bin/typescript-language-server")
	if got := tsserverOf(prog, ""); got != want {
		t.Errorf("beside the server: %q, want %q", got, want)
	}
	if got := initOptions("typescript", prog, ""); got["tsserver"].(map[string]any)["path"] != want {
		t.Errorf("initOptions = %v", got)
	}

	lone := mk("b/bin/typescript-language-server")
	if got := tsserverOf(lone, ""); got != "" {
		t.Errorf("with no TypeScript: %q, want none", got)
	}
	onPath := mk("c/node_modules/typescript/lib/tsserver.js")
	mk("c/node_modules/typescript/bin/tsserver")
	link("../node_modules/typescript/bin/tsserver", "c/bin/tsserver")
	if got := tsserverOf(lone, filepath.Join(dir, "c", "bin")); got != onPath {
		t.Errorf("the tsserver on PATH: %q, want %q", got, onPath)
	}
}
