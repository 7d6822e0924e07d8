package langpool

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentls/agentls/config"
)

// defaults are the known language servers, used when found on PATH and
// lsp.servers does not name the file type.
var defaults = map[string][]string{
	"go":         {"gopls"},
	"typescript": {"typescript-language-server", "--stdio"},
	"python":     {"pyright-langserver", "--stdio"},
	"rust":       {"rust-analyzer"},
	"c":          {"clangd"},
}

// command is a file type's server: its argv (the program resolved to an
// absolute path) and where it came from, or why there is none.
type command struct {
	argv   []string
	init   map[string]any // its initializationOptions (tsserver.go)
	origin string         // "config" or "PATH"
	why    string         // set when argv is nil
}

// commands resolves every file type's server from lsp.servers over the
// defaults, looking programs up in path (the host's PATH).
func commands(cfg config.LSP, path string) map[string]command {
	out := map[string]command{}
	types := map[string]bool{}
	for t := range defaults {
		types[t] = true
	}
	for t := range cfg.Servers {
		types[t] = true
	}
	for t := range types {
		argv, origin := defaults[t], "PATH"
		if s, ok := cfg.Servers[t]; ok {
			argv, origin = s.Command, "config"
			if len(argv) == 0 {
				out[t] = command{why: "turned off in lsp.servers"}
				continue
			}
		}
		prog, ok := lookPath(argv[0], path)
		if !ok {
			out[t] = command{why: argv[0] + " not found on PATH"}
			continue
		}
		out[t] = command{argv: append([]string{prog}, argv[1:]...), init: initOptions(t, prog, path), origin: origin}
	}
	return out
}

// lookPath finds prog in the folders of path (an absolute or relative
// path with a slash is taken as it is, if executable).
func lookPath(prog, path string) (string, bool) {
	if strings.ContainsRune(prog, '/') {
		abs, err := filepath.Abs(prog)
		return abs, err == nil && executable(abs)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, prog)
		if executable(p) {
			return p, true
		}
	}
	return "", false
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// sortedTypes is the keys of m, sorted.
func sortedTypes[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
