package langpool

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// fakeRustPool is a pool over a workspace at root holding files (folders
// made as needed), whose PATH holds a fake rust-analyzer (the fake
// server, reporting how it was started) and a fake rustc; edit changes
// the configuration. It returns the pool and the fake rustc's path.
func fakeRustPool(t *testing.T, root string, files map[string]string, edit func(*config.Config)) (*Pool, string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "rust-analyzer"), []byte("#!/bin/sh\nexec '"+exe+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	rustc := filepath.Join(bin, "rustc")
	if err := os.WriteFile(rustc, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeServerEnv, "1")
	t.Setenv("LANGPOOL_FAKE_ROOT", root)
	for _, k := range reportedEnv { // as on a host that sets none of them
		t.Setenv(k, "") // restored when the test ends
		if err := os.Unsetenv(k); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	if edit != nil {
		edit(&cfg)
	}
	path := bin + string(os.PathListSeparator) + "/usr/bin" + string(os.PathListSeparator) + "/bin"
	p := New(Options{Workspace: ws, Config: cfg, CacheDir: t.TempDir(), Getenv: func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}})
	t.Cleanup(p.Close)
	return p, rustc
}

// rustReport asks the pool about file until the fake rust-analyzer
// reports, with the client's answer to its workspace/configuration.
func rustReport(t *testing.T, p *Pool, file string) fakeServerReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		snap, err := p.Diagnostics(ctx, []string{file})
		if err != nil {
			t.Fatalf("diagnostics of %s: %v", file, err)
		}
		for _, d := range snap.Files[file] {
			if msg, ok := strings.CutPrefix(d.Message, reportPrefix); ok {
				var r fakeServerReport
				if err := json.Unmarshal([]byte(msg), &r); err != nil {
					t.Fatalf("report %q: %v", msg, err)
				}
				if string(r.Configuration) != "null" {
					return r
				}
			}
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("the fake rust-analyzer did not report: %+v", snap.Files)
		}
	}
}

// hostileCargoConfig is a repository's .cargo/config.toml naming its own
// rustc, wrappers and flags: cargo metadata, which rust-analyzer always
// runs, runs the wrapper (rustc -vV), and cargo check all of them.
const hostileCargoConfig = `[build]
rustc = "./evil"
rustc-wrapper = "./evil"
rustc-workspace-wrapper = "./evil"
rustflags = ["-Zcodegen-backend=./evil.so"]
`

// TestRustAnalyzerRunsNothingOfTheRepositorys: rust-analyzer, started
// with no options, builds and runs the workspace's build scripts and
// proc-macros and cargo check, and cargo runs the rustc, wrappers and
// flags the repository's .cargo/config.toml names, also for cargo
// metadata; the pool serves the code tool in plan mode, before the user
// trusted anything. The pool turns build scripts, proc-macros and check
// off (initializationOptions, and the same answer to
// workspace/configuration), and names rustc (the host's), no wrapper and
// no flags in the server's environment, which cargo takes over its
// configuration files.
func TestRustAnalyzerRunsNothingOfTheRepositorys(t *testing.T) {
	root := t.TempDir()
	p, rustc := fakeRustPool(t, root, map[string]string{
		"Cargo.toml":         "[package]\nname = \"r\"\nversion = \"0.1.0\"\n",
		".cargo/config.toml": hostileCargoConfig,
		"evil":               "#!/bin/sh\nexit 0\n",
		"src/main.rs":        "// REPORT\nfn main() {}\n",
	}, nil)
	r := rustReport(t, p, filepath.Join(root, "src", "main.rs"))

	var opts struct {
		Cargo struct {
			BuildScripts struct {
				Enable *bool `json:"enable"`
			} `json:"buildScripts"`
		} `json:"cargo"`
		ProcMacro struct {
			Enable *bool `json:"enable"`
		} `json:"procMacro"`
		CheckOnSave *bool `json:"checkOnSave"`
	}
	if err := json.Unmarshal(r.InitializationOptions, &opts); err != nil {
		t.Fatalf("initializationOptions %s: %v", r.InitializationOptions, err)
	}
	off := func(b *bool) bool { return b != nil && !*b }
	if !off(opts.Cargo.BuildScripts.Enable) || !off(opts.ProcMacro.Enable) || !off(opts.CheckOnSave) {
		t.Errorf("initializationOptions = %s, want cargo.buildScripts.enable, procMacro.enable and checkOnSave false", r.InitializationOptions)
	}
	var answer []json.RawMessage
	if err := json.Unmarshal(r.Configuration, &answer); err != nil || len(answer) != 1 || !sameJSON(answer[0], r.InitializationOptions) {
		t.Errorf("workspace/configuration of rust-analyzer answered %s, want [the initializationOptions %s]", r.Configuration, r.InitializationOptions)
	}
	want := map[string]string{"RUSTC": rustc, "RUSTC_WRAPPER": "", "RUSTC_WORKSPACE_WRAPPER": "", "CARGO_ENCODED_RUSTFLAGS": ""}
	for k, v := range want {
		if got := r.Env[k]; got == nil || *got != v {
			t.Errorf("rust-analyzer's %s = %v, want %q (else cargo takes the repository's)", k, deref(got), v)
		}
	}
}

// TestRustAnalyzerIsNotStartedOverTheRepositorysToolchainOrSettings: what
// no option or variable overrides: a rust-analyzer.toml (its settings win
// over the client's: overrideCommand, extraEnv, build scripts on) and a
// rust-toolchain file naming a toolchain by path (rustup runs its cargo
// and rustc), in the root or a folder just below. rust-analyzer found on
// PATH does not start there and Status says why; a channel-only
// toolchain file is no reason; named in lsp.servers, it starts.
func TestRustAnalyzerIsNotStartedOverTheRepositorysToolchainOrSettings(t *testing.T) {
	main := "// REPORT\nfn main() {}\n"
	for _, tc := range []struct {
		name, file, text, why string
	}{
		{"settings", "rust-analyzer.toml", "cargo.buildScripts.overrideCommand = [\"./evil\"]\n", "rust-analyzer.toml"},
		{"toolchain path", "rust-toolchain.toml", "[toolchain]\npath = \"/tmp/evil-toolchain\"\n", "names a toolchain by path"},
		{"legacy toolchain path", "sub/rust-toolchain", "/tmp/evil-toolchain\n", "names a toolchain by path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{"src/main.rs": main, tc.file: tc.text}
			p, _ := fakeRustPool(t, root, files, nil)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := p.Diagnostics(ctx, []string{filepath.Join(root, "src", "main.rs")})
			if !errors.Is(err, intel.ErrNotServed) || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("diagnostics with the repository's %s: %v, want not served: %s", tc.file, err, tc.why)
			}
			if running := p.Running(); len(running) != 0 {
				t.Fatalf("servers running: %v, want none", running)
			}
			found := false
			for _, s := range p.Status() {
				if s.FileType == "rust" {
					found = s.Source == "none" && strings.Contains(s.Detail, tc.why)
				}
			}
			if !found {
				t.Errorf("Status = %+v, want rust: none: …%s…", p.Status(), tc.why)
			}
		})
	}
	t.Run("channel", func(t *testing.T) {
		root := t.TempDir()
		p, _ := fakeRustPool(t, root, map[string]string{"src/main.rs": main, "rust-toolchain.toml": "# https://rust-lang.github.io/rustup/overrides.html\n[toolchain]\nchannel = \"1.80.0\"\n"}, nil)
		rustReport(t, p, filepath.Join(root, "src", "main.rs"))
	})
	t.Run("configured", func(t *testing.T) {
		root := t.TempDir()
		p, _ := fakeRustPool(t, root, map[string]string{"src/main.rs": main, "rust-analyzer.toml": "\n"}, func(c *config.Config) {
			c.LSP.Servers = map[string]config.LSPServer{"rust": {Command: []string{"rust-analyzer"}}}
		})
		rustReport(t, p, filepath.Join(root, "src", "main.rs"))
	})
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && jsonString(x) == jsonString(y)
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// TestNamesToolchainPath: a toolchain file names a path when a path key,
// a slash or a backslash stands outside its comments; a '#' inside a
// string starts no comment (a `components = ["#"]` before the path hid
// it), and a multi-line string counts as a path.
func TestNamesToolchainPath(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"channel", "[toolchain]\nchannel = \"1.80.0\"\n", false},
		{"channel with a commented URL", "# https://rust-lang.github.io/rustup/overrides.html\n[toolchain]\nchannel = \"stable\" # see /docs\n", false},
		{"path", "[toolchain]\npath = \"/tmp/tc\"\n", true},
		{"path after a # in a string", "toolchain = { components = [\"#\"], path = \"./tc\" }\n", true},
		{"path after a # in a literal string", "toolchain = { components = ['#'], path = \"./tc\" }\n", true},
		{"escaped quote before #", "toolchain = { components = [\"\\\"#\"], path = \"./tc\" }\n", true},
		{"multi-line string", "[toolchain]\nchannel = \"\"\"\nstable\"\"\"\n", true},
		{"legacy file naming a folder", "/tmp/tc\n", true},
	} {
		p := filepath.Join(t.TempDir(), "rust-toolchain.toml")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := namesToolchainPath(p); got != tc.want {
			t.Errorf("%s: namesToolchainPath(%q) = %v, want %v", tc.name, tc.text, got, tc.want)
		}
	}
}
