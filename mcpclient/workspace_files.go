package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/agentls/agentls/internal/statefile"
)

// WorkspaceFiles are the workspace files that define MCP servers, relative
// to the workspace root: .mcp.json (key mcpServers) and .vscode/mcp.json
// (key servers). No agent tool may change them (guard/protected.go).
var WorkspaceFiles = []string{".mcp.json", filepath.Join(".vscode", "mcp.json")}

// maxWorkspaceFile bounds a workspace file's size.
const maxWorkspaceFile = 1 << 20

// WorkspaceFile is one workspace file's servers, with the content read
// (what the user trusts).
type WorkspaceFile struct {
	Path    string
	Content []byte
	Specs   []ServerSpec
	// Err is why the file could not be read (it defines no server then).
	Err error
}

// fileServer is one entry of either file.
type fileServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	// Disabled is agentls's own key, honoured when present.
	Disabled bool `json:"disabled"`
}

// ReadWorkspaceFiles reads the workspace files of root that exist, with
// ${workspaceFolder} and ${env:VAR} expanded (getenv reads the
// environment). An entry that uses ${input:…} (VS Code asks the user for
// it) or another variable is skipped with the reason, and so is one that
// reads a variable denied reports (the model's key, run.env_deny: a
// repository's file could hand it to its server under another name or in
// a header).
func ReadWorkspaceFiles(root string, getenv func(string) string, denied func(string) bool) []WorkspaceFile {
	var out []WorkspaceFile
	for i, rel := range WorkspaceFiles {
		path := filepath.Join(root, rel)
		data, err := readSmall(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		wf := WorkspaceFile{Path: path, Content: data, Err: err}
		if err == nil {
			key := "mcpServers"
			if i == 1 {
				key = "servers"
			}
			wf.Specs, wf.Err = parseWorkspaceFile(data, key, root, path, getenv, denied)
		}
		out = append(out, wf)
	}
	return out
}

// readSmall reads a workspace MCP file: a regular file (not a link, never
// a FIFO) of at most maxWorkspaceFile bytes.
func readSmall(path string) ([]byte, error) {
	data, _, err := statefile.Read(path, maxWorkspaceFile)
	return data, err
}

func parseWorkspaceFile(data []byte, key, root, path string, getenv func(string) string, denied func(string) bool) ([]ServerSpec, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var servers map[string]fileServer
	if raw, ok := doc[key]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, key, err)
		}
	}
	var out []ServerSpec
	for name, fsrv := range servers {
		spec := ServerSpec{Name: name, Type: fsrv.Type, Cwd: fsrv.Cwd, URL: fsrv.URL, Origin: FromWorkspaceFile, Source: path}
		if spec.Type == "sse" {
			spec.Skip = "SSE servers are not supported"
		}
		ex := expander{root: root, getenv: getenv, denied: denied}
		spec.Command = ex.expand(fsrv.Command, "its command")
		for _, a := range fsrv.Args {
			spec.Args = append(spec.Args, ex.expand(a, "its arguments"))
		}
		spec.Env = ex.expandMap(fsrv.Env, "env ")
		spec.Headers = ex.expandMap(fsrv.Headers, "header ")
		spec.Cwd = ex.expand(spec.Cwd, "its cwd")
		spec.URL = ex.expand(spec.URL, "its URL")
		spec.EnvRefs = ex.refs
		spec.AsWritten = asWritten(fsrv, root)
		if ex.skip != "" && spec.Skip == "" {
			spec.Skip = ex.skip
		}
		if fsrv.Disabled && spec.Skip == "" {
			spec.Skip = "disabled in " + path
		}
		out = append(out, spec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// asWritten is a file's entry to show: its command line or URL, env,
// headers and cwd with ${workspaceFolder} expanded, every other variable
// as written.
func asWritten(fsrv fileServer, root string) *ServerSpec {
	folder := func(s string) string { return strings.ReplaceAll(s, "${workspaceFolder}", root) }
	w := &ServerSpec{Type: fsrv.Type, Command: folder(fsrv.Command), URL: folder(fsrv.URL), Cwd: folder(fsrv.Cwd)}
	for _, a := range fsrv.Args {
		w.Args = append(w.Args, folder(a))
	}
	folders := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = folder(v)
		}
		return out
	}
	w.Env, w.Headers = folders(fsrv.Env), folders(fsrv.Headers)
	return w
}

var varRE = regexp.MustCompile(`\$\{([^}]*)\}`)

// expander expands the variables of a workspace file's values; skip is set
// at the first value it cannot (or may not) expand, refs lists each
// ${env:VAR} it read.
type expander struct {
	root   string
	getenv func(string) string
	denied func(string) bool
	skip   string
	refs   []EnvRef
}

// expand expands s, the value of where ("its arguments", "env FOO"…).
func (e *expander) expand(s, where string) string {
	return varRE.ReplaceAllStringFunc(s, func(m string) string {
		v := m[2 : len(m)-1]
		switch {
		case v == "workspaceFolder":
			return e.root
		case strings.HasPrefix(v, "env:"):
			name := strings.TrimPrefix(v, "env:")
			if e.denied != nil && e.denied(name) {
				if e.skip == "" {
					e.skip = fmt.Sprintf("it passes ${env:%s} (%s) to the server, a variable agentls keeps from every command and server (model.api_key_env, run.env_deny): define the server under mcp.servers of your own configuration if it needs it", name, where)
				}
				return m
			}
			if !slices.Contains(e.refs, EnvRef{Var: name, In: where}) {
				e.refs = append(e.refs, EnvRef{Var: name, In: where})
			}
			return e.getenv(name)
		case strings.HasPrefix(v, "input:"):
			if e.skip == "" {
				e.skip = fmt.Sprintf("it uses %s, a value VS Code asks the user for; agentls cannot ask for it: put the value in mcp.servers of your own configuration", m)
			}
		default:
			if e.skip == "" {
				e.skip = fmt.Sprintf("it uses %s, a variable agentls does not know (only ${workspaceFolder} and ${env:VAR})", m)
			}
		}
		return m
	})
}

// expandMap expands each value of m, whose keys are named prefix+key.
func (e *expander) expandMap(m map[string]string, prefix string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out[k] = e.expand(m[k], prefix+k)
	}
	return out
}
