package langpool

import (
	"os"
	"path/filepath"
)

// initOptions are a server's initializationOptions: gopls otherwise waits
// a second after each change before it publishes (diagnosticsDelay), which
// every edit's settle wait would pay; typescript-language-server is told
// which tsserver to run (tsserverOf), else it runs the workspace's;
// rust-analyzer builds and runs nothing of the repository's (rustInit).
func initOptions(fileType, prog, path string) map[string]any {
	switch fileType {
	case "go":
		return map[string]any{"diagnosticsDelay": "0s"}
	case "typescript":
		if ts := tsserverOf(prog, path); ts != "" {
			return map[string]any{"tsserver": map[string]any{"path": ts}}
		}
	case "rust":
		return rustInit()
	}
	return nil
}

// tsserverOf is the tsserver.js of the TypeScript installed beside the
// server prog (as Node resolves `typescript` from the server's own
// script), else of the tsserver found on path (never the workspace's:
// path leaves its folders out), else "". Named to
// typescript-language-server, it is the one that runs: without it the
// server runs the first TypeScript it finds in the workspace
// (node_modules/typescript, .yarn/sdks/typescript, in the root or a folder
// above), the repository's own JavaScript.
func tsserverOf(prog, path string) string {
	if real, err := filepath.EvalSymlinks(prog); err == nil {
		for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
			if filepath.Base(dir) != "node_modules" {
				if ts := filepath.Join(dir, "node_modules", "typescript", "lib", "tsserver.js"); isFile(ts) {
					return ts
				}
			}
			if parent := filepath.Dir(dir); parent == dir {
				break
			}
		}
	}
	if bin, ok := lookPath("tsserver", path); ok { // typescript's bin/tsserver
		if real, err := filepath.EvalSymlinks(bin); err == nil {
			if ts := filepath.Join(filepath.Dir(filepath.Dir(real)), "lib", "tsserver.js"); isFile(ts) {
				return ts
			}
		}
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
