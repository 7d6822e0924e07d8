// Command protogen writes what is derived from the agentproto package:
// the VS Code extension's TypeScript types (editors/vscode/src/protocol.gen.ts),
// the Neovim plugin's method names and LuaCATS classes
// (editors/nvim/lua/agentls/protocol.lua) and the method table of
// docs/protocol.md (between its markers). Run it with `go generate
// ./agentproto`; TestGeneratedFiles fails when a file drifts.
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
	docFile = "docs/protocol.md"
)

// The markers around the method table in docs/protocol.md.
const (
	docStart = "<!-- BEGIN generated method table: go generate ./agentproto -->"
	docEnd   = "<!-- END generated method table -->"
)

// generate builds every generated file from the package's source (its
// types and their comments) and its method table.
func generate(root string) (map[string][]byte, error) {
	pkg, err := parsePackage(filepath.Join(root, "agentproto"))
	if err != nil {
		return nil, err
	}
	doc, err := os.ReadFile(filepath.Join(root, docFile))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", docFile, err)
	}
	spliced, err := splice(string(doc), docStart, docEnd, methodTable())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", docFile, err)
	}
	return map[string][]byte{
		tsFile:  []byte(typescript(pkg)),
		luaFile: []byte(lua(pkg)),
		docFile: []byte(spliced),
	}, nil
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
