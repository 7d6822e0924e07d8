// Command protogen writes what is derived from the agentproto package:
// the VS Code extension's TypeScript types (editors/vscode/src/protocol.gen.ts),
// the Neovim plugin's method names and LuaCATS classes
// (editors/nvim/lua/agentls/protocol.lua), and between their markers the
// method table of docs/protocol.md (§7; the README and docs/acp.md link to
// it rather than keep copies). Run it with `go generate ./agentproto`;
// TestGeneratedFiles fails when a file drifts.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	root := flag.String("root", ".", "the repository's root folder")
	flag.Parse()
	files, err := generate(*root)
	if err != nil {
		slog.Error("protogen", "err", err)
		os.Exit(1)
	}
	if err := write(*root, files); err != nil {
		slog.Error("protogen", "err", err)
		os.Exit(1)
	}
}

// Generated files, relative to the repository's root.
const (
	tsFile  = "editors/vscode/src/protocol.gen.ts"
	luaFile = "editors/nvim/lua/agentls/protocol.lua"
)

// section is a part of a hand-written document generated between two
// marker lines: "<!-- BEGIN generated <name>: go generate ./agentproto -->"
// and "<!-- END generated <name> -->".
type section struct {
	file, name string
	text       func() string
}

// sections are the generated parts of the documents: docs/protocol.md's
// method table (§7), the one table of every method, its faces and types.
var sections = []section{
	{"docs/protocol.md", "method table", methodTable},
}

// generate builds every generated file from the package's source (its
// types and their comments) and its method table.
func generate(root string) (map[string][]byte, error) {
	pkg, err := parsePackage(filepath.Join(root, "agentproto"))
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		tsFile:  []byte(typescript(pkg)),
		luaFile: []byte(lua(pkg)),
	}
	for _, sec := range sections {
		doc, ok := files[sec.file]
		if !ok {
			if doc, err = os.ReadFile(filepath.Join(root, sec.file)); err != nil {
				return nil, fmt.Errorf("read %s: %w", sec.file, err)
			}
		}
		start := "<!-- BEGIN generated " + sec.name + ": go generate ./agentproto -->"
		end := "<!-- END generated " + sec.name + " -->"
		spliced, err := splice(string(doc), start, end, sec.text())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sec.file, err)
		}
		files[sec.file] = []byte(spliced)
	}
	return files, nil
}

// write writes files under root.
func write(root string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join(root, n)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", n, err)
		}
		if err := os.WriteFile(path, files[n], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", n, err)
		}
	}
	return nil
}
