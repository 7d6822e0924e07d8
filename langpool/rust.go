package langpool

import (
	"os"
	"path/filepath"
	"strings"
)

// rustInit is rust-analyzer's initializationOptions, and its answer to
// workspace/configuration: no build scripts (build.rs), no proc-macros
// and no cargo check, which build and run the repository's own code. It
// still runs cargo metadata and rustc --print (rustEnv keeps the
// repository's wrappers out of those).
func rustInit() map[string]any {
	return map[string]any{
		"cargo":       map[string]any{"buildScripts": map[string]any{"enable": false}},
		"procMacro":   map[string]any{"enable": false},
		"checkOnSave": false,
	}
}

// configSection is the workspace/configuration section a file type's
// server asks its settings under, answered with its initializationOptions
// (rust-analyzer takes the answer over them).
var configSection = map[string]string{"rust": "rust-analyzer"}

// rustEnv is environ for rust-analyzer: cargo takes its rustc, rustc
// wrappers and rustflags from the repository's .cargo/config.toml
// (build.rustc, build.rustc-wrapper, build.rustc-workspace-wrapper,
// build.rustflags: -Z codegen-backend loads a library) unless the
// environment names them, and cargo metadata runs the wrapper. So each is
// named: the rustc found on path, no wrapper, no flags; a value the
// user's own environment sets is kept. ok is false when no rustc is on
// path (cargo would take the repository's).
func rustEnv(environ []string, path string) (out []string, ok bool) {
	have := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		have[k] = v
	}
	set := map[string]string{}
	if have["RUSTC"] == "" {
		rustc, found := lookPath("rustc", path)
		if !found {
			return environ, false
		}
		set["RUSTC"] = rustc
	}
	for _, k := range []string{"RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER"} {
		if have[k] == "" {
			set[k] = ""
		}
	}
	if have["RUSTFLAGS"] == "" && have["CARGO_ENCODED_RUSTFLAGS"] == "" {
		set["CARGO_ENCODED_RUSTFLAGS"] = ""
	}
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := set[k]; !over {
			out = append(out, kv)
		}
	}
	for _, k := range sortedTypes(set) {
		out = append(out, k+"="+set[k])
	}
	return out, true
}

// rustRefusal is why rust-analyzer found on PATH must not start for the
// workspace folders, or "": what no option or variable overrides and runs
// the repository's programs, in a folder or one just below it (where
// rust-analyzer looks for projects): a rust-analyzer.toml (its settings
// win over the pool's: build scripts, overrideCommand, extraEnv), and a
// rust-toolchain file naming a toolchain by path (rustup runs that
// folder's cargo and rustc).
func rustRefusal(folders []string) string {
	for _, f := range folders {
		dirs := []string{f}
		if entries, err := os.ReadDir(f); err == nil {
			for _, e := range entries {
				if e.IsDir() {
					dirs = append(dirs, filepath.Join(f, e.Name()))
				}
			}
		}
		for _, d := range dirs {
			if p := filepath.Join(d, "rust-analyzer.toml"); exists(p) {
				return p + " sets rust-analyzer's options in the repository (they can run its programs); name rust-analyzer in lsp.servers to start it anyway"
			}
			for _, name := range []string{"rust-toolchain", "rust-toolchain.toml"} {
				if p := filepath.Join(d, name); namesToolchainPath(p) {
					return p + " names a toolchain by path (rustup would run its programs); name rust-analyzer in lsp.servers to start it anyway"
				}
			}
		}
	}
	return ""
}

// namesToolchainPath reports whether the rustup toolchain file p names a
// toolchain by path: a path key, or a slash or backslash outside comments
// (a channel name has none; an unreadable file counts as one, and so does
// a multi-line string, which a line's reading cannot follow).
func namesToolchainPath(p string) bool {
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return false
	}
	if err != nil || strings.Contains(string(b), `"""`) || strings.Contains(string(b), "'''") {
		return true
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = tomlUncommented(line)
		if strings.Contains(line, "path") || strings.ContainsAny(line, `/\`) {
			return true
		}
	}
	return false
}

// tomlUncommented is a TOML line without its comment: from the first '#'
// outside a string on ("#" inside `components = ["#"]` starts none).
func tomlUncommented(line string) string {
	var quote rune // the open string's quote, or 0
	escaped := false
	for i, r := range line {
		switch {
		case escaped:
			escaped = false
		case quote == '"' && r == '\\':
			escaped = true
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '#':
			return line[:i]
		}
	}
	return line
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
