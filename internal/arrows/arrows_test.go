package arrows

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// mayImport is DESIGN.md's table "it may import", by top folder of the
// module: a package of the folder may depend, directly or through others,
// only on packages of these folders (its own and internal/ always).
// Folders outside the house (cmd, bench, the root's assets) are not
// listed: they may import everything.
var mayImport = map[string][]string{
	"server": {"agentproto", "host", "mcpclient", "langpool", "agent", "workspace", "guard", "questions", "config", "permission", "sandbox", "sessionstore", "checkpoint"},
	"acp":    {"agentproto", "host", "mcpclient", "langpool", "agent", "workspace", "guard", "questions", "config", "permission", "sandbox", "sessionstore", "checkpoint"},
	// langpool is agentls as the LSP client of the user's language
	// servers (agent.LanguageIntel, in the sandbox): only the faces and the
	// command import it; it speaks LSP itself, so it is not below them.
	"langpool": {"agentproto", "agent", "workspace", "guard", "questions", "config", "permission", "sandbox", "sessionstore", "checkpoint"},
	// agentproto is the typed agent/* protocol (params, results, the method
	// table): a leaf of value types that imports nothing of the project
	// (see leafLibraries). Every room may import it, as every room may use
	// workspace's types: a value the protocol carries (a plan's status, a
	// tool's reach, a permission's options, an MCP server's status) is
	// declared once, there, and a room below the faces uses it under its
	// agentproto name (no alias) instead of keeping a mirror the faces
	// convert field by field. Only value types live there (and what a value says of
	// itself, as whether a status is a known one), no room's behaviour, so
	// no room learns more of the protocol than the values it handles.
	"agentproto": {},
	"host":       {"agentproto", "mcpclient", "agent", "workspace", "guard", "questions", "config", "permission", "sandbox", "sessionstore", "checkpoint"},
	// mcpclient turns MCP servers' tools into the agent's tools
	// (agent/tools); host imports it.
	"mcpclient":  {"agentproto", "agent", "workspace", "guard", "questions", "config", "permission", "sandbox", "sessionstore", "checkpoint"},
	"agent":      {"agentproto", "workspace", "guard", "questions", "config", "permission", "sandbox", "sessionstore", "checkpoint"},
	"checkpoint": {"agentproto", "workspace"},
	// sessionstore is the session store (.chat, .meta, .approved and
	// .lock files): agentls's own state, read from the disk, never
	// through workspace's overlay of open buffers.
	"sessionstore": {"agentproto", "workspace"},
	// guard reads a plan lock's session metadata (LockRegistry).
	"guard":      {"agentproto", "workspace", "sessionstore"},
	"workspace":  {"agentproto"},
	"questions":  {"agentproto"},
	"config":     {"agentproto"},
	"permission": {"agentproto", "questions"},
	"sandbox":    {"agentproto"},
}

// providers are the model providers: only the host (the provider factory),
// the command and the benchmarks build them; the agent's core loop talks
// to llm.Provider.
var providers = []string{"agent/openai", "agent/scripted"}

// orchestrators are the folders whose root package is the orchestration of
// its sub-packages: the root imports its sub-packages, never the reverse,
// so each sub-package (agent/fence, agent/instructions, agent/slash, …: one
// job each, see docs/contributing.md "Where things live in agent") is
// testable alone and takes what it needs of a session through small
// interfaces or plain values.
var orchestrators = []string{"agent"}

// mayImportProviders are the folders whose packages may import providers.
var mayImportProviders = []string{"host", "cmd", "bench"}

// testSupport reports whether p is a package that only tests import, named
// as Go names them (net/http/httptest): server/internal/lsptest runs the
// real server with the scripted model, as the tests did before it.
func testSupport(p string) bool { return strings.HasSuffix(path.Base(p), "test") }

// rpcLibraries are the protocol libraries: nothing below the faces knows
// about JSON-RPC, LSP or ACP.
var rpcLibraries = []string{"go.lsp.dev/", "github.com/sourcegraph/jsonrpc2", "github.com/coder/acp-go-sdk"}

// belowFaces are the folders under server and acp.
var belowFaces = []string{"host", "mcpclient", "agent", "workspace", "guard", "questions", "config", "permission", "sandbox", "checkpoint", "sessionstore"}

// ownedLibraries are libraries only one folder imports: the MCP SDK is
// mcpclient's.
var ownedLibraries = map[string]string{"github.com/modelcontextprotocol/go-sdk": "mcpclient"}

// leafLibraries are the only libraries outside the standard library a
// leaf folder may import: agentproto knows LSP's types at most.
var leafLibraries = map[string][]string{"agentproto": {"go.lsp.dev/protocol"}}

// isStandard tells whether an import path is the standard library's (its
// first element has no dot).
func isStandard(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

// graph is the module's packages (relative folder, "" for the root) with
// their imports: module packages as relative folders, others as import
// paths.
type graph struct {
	local    map[string][]string
	external map[string][]string
}

// TestArrows checks the module's own import graph (non-test files).
func TestArrows(t *testing.T) {
	root, module := moduleRoot(t)
	g, err := load(root, module)
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"server", "host", "agent", "workspace", "guard", "questions", "config", "cmd/agentls"} {
		if _, ok := g.local[must]; !ok {
			t.Fatalf("package %s not found under %s: the test would check nothing", must, root)
		}
	}
	for _, v := range violations(g) {
		t.Error(v)
	}
}

// TestViolationsFound: each kind of broken arrow is reported (the check
// itself can fail).
func TestViolationsFound(t *testing.T) {
	base := func() graph {
		return graph{
			local: map[string][]string{
				"cmd/agentls":    {"server", "acp", "host", "agent/scripted"},
				"server":         {"host", "agent", "workspace"},
				"acp":            {"host", "agent"},
				"host":           {"agent", "agent/openai", "agent/scripted", "config", "internal/x"},
				"agent":          {"agent/llm", "agent/tools", "guard", "questions", "workspace", "config"},
				"agent/llm":      nil,
				"agent/tools":    {"agent/llm", "guard"},
				"agent/openai":   {"agent/llm"},
				"agent/scripted": {"agent/llm"},
				"guard":          {"workspace"},
				"workspace":      nil,
				"questions":      {"internal/x"},
				"config":         nil,
				"internal/x":     nil,
				"langpool":       {"agent", "workspace"},
				"bench/b":        {"agent/openai", "server"},
				// A test-support package of the server.
				"server/internal/lsptest": {"server", "agent/scripted", "internal/x"},
				"agentproto":              nil,
			},
			external: map[string][]string{"server": {"go.lsp.dev/jsonrpc2"}, "acp": {"github.com/coder/acp-go-sdk"}, "agentproto": {"encoding/json", "go.lsp.dev/protocol"}},
		}
	}
	if v := violations(base()); len(v) != 0 {
		t.Fatalf("a correct graph has violations: %q", v)
	}
	tests := []struct {
		name string
		from string
		imp  string // a local folder, or an external path with a dot
		want string
	}{
		{"server imports acp", "server", "acp", "server may not depend on acp"},
		{"acp imports server", "acp", "server", "acp may not depend on server"},
		{"host imports server", "host", "server", "host may not depend on server"},
		{"agent imports host", "agent", "host", "agent may not depend on host"},
		{"a sub-package imports its root", "agent/tools", "agent", "agent/tools may not depend on its root agent (agent/tools → agent)"},
		{"a sub-package reaches its root", "agent/llm", "agent", "agent/tools may not depend on its root agent (agent/tools → agent/llm → agent)"},
		{"agent imports a provider", "agent", "agent/openai", "agent may not import the model provider agent/openai"},
		{"tools import a provider", "agent/tools", "agent/scripted", "agent/tools may not import the model provider agent/scripted"},
		{"server imports a provider", "server", "agent/scripted", "server may not import the model provider agent/scripted"},
		{"agent reaches a provider", "agent/llm", "agent/scripted", "agent may not depend on the model provider agent/scripted (agent → agent/llm → agent/scripted)"},
		{"guard imports questions", "guard", "questions", "guard may not depend on questions"},
		{"workspace imports guard", "workspace", "guard", "workspace may not depend on guard"},
		{"workspace imports sessionstore", "workspace", "sessionstore", "workspace may not depend on sessionstore"},
		{"through internal", "internal/x", "server", "questions may not depend on server (questions → internal/x → server)"},
		{"anything imports cmd", "server", "cmd/agentls", "server imports cmd/agentls"},
		{"host knows jsonrpc2", "host", "go.lsp.dev/jsonrpc2", "host depends on go.lsp.dev/jsonrpc2"},
		{"agent knows LSP through internal", "internal/x", "go.lsp.dev/protocol", "agent depends on go.lsp.dev/protocol"},
		{"guard knows ACP", "guard", "github.com/coder/acp-go-sdk", "guard depends on github.com/coder/acp-go-sdk"},
		{"host imports the MCP SDK", "host", "github.com/modelcontextprotocol/go-sdk/mcp", "host imports github.com/modelcontextprotocol/go-sdk/mcp: only mcpclient"},
		{"mcpclient imports host", "mcpclient", "host", "mcpclient may not depend on host"},
		{"agentproto imports agent", "agentproto", "agent", "agentproto may not depend on agent"},
		{"agentproto imports the ACP SDK", "agentproto", "github.com/coder/acp-go-sdk", "agentproto imports github.com/coder/acp-go-sdk: agentproto imports only"},
		{"agentproto imports guard", "agentproto", "guard", "agentproto may not depend on guard"},
		{"host imports langpool", "host", "langpool", "host may not depend on langpool"},
		{"agent imports langpool", "agent", "langpool", "agent may not depend on langpool"},
		{"langpool imports server", "langpool", "server", "langpool may not depend on server"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := base()
			if strings.Contains(tc.imp, ".") {
				g.external[tc.from] = append(g.external[tc.from], tc.imp)
			} else {
				g.local[tc.from] = append(g.local[tc.from], tc.imp)
			}
			v := violations(g)
			if !slices.ContainsFunc(v, func(s string) bool { return strings.Contains(s, tc.want) }) {
				t.Fatalf("violations %q, want one saying %q", v, tc.want)
			}
		})
	}
}

// violations lists the broken arrows of g, sorted.
func violations(g graph) []string {
	var out []string
	pkgs := make([]string, 0, len(g.local))
	for p := range g.local {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		top := topOf(p)
		for _, imp := range g.local[p] {
			if topOf(imp) == "cmd" {
				out = append(out, fmt.Sprintf("%s imports %s: nothing imports a command", p, imp))
			}
			if slices.Contains(providers, imp) && !slices.Contains(providers, p) && !slices.Contains(mayImportProviders, top) && !testSupport(p) {
				out = append(out, fmt.Sprintf("%s may not import the model provider %s (only %s do: host.NewProvider)", p, imp, strings.Join(mayImportProviders, ", ")))
			}
		}
		for _, ext := range g.external[p] {
			for lib, owner := range ownedLibraries {
				if strings.HasPrefix(ext, lib) && top != owner {
					out = append(out, fmt.Sprintf("%s imports %s: only %s imports %s", p, ext, owner, lib))
				}
			}
		}
		if libs, ok := leafLibraries[top]; ok {
			for _, ext := range g.external[p] {
				if !isStandard(ext) && !slices.ContainsFunc(libs, func(l string) bool { return ext == l || strings.HasPrefix(ext, l+"/") }) {
					out = append(out, fmt.Sprintf("%s imports %s: %s imports only the standard library and %s", p, ext, top, strings.Join(libs, ", ")))
				}
			}
		}
		allowed, inHouse := mayImport[top]
		if !inHouse {
			continue
		}
		parent := reach(g, p)
		for _, dep := range sortedKeys(parent) {
			dt := topOf(dep)
			if dt != top && dt != "internal" && !slices.Contains(allowed, dt) {
				out = append(out, fmt.Sprintf("%s may not depend on %s (%s)", p, dep, chain(parent, p, dep)))
			}
			if dep == top && p != top && slices.Contains(orchestrators, top) {
				out = append(out, fmt.Sprintf("%s may not depend on its root %s (%s): the root orchestrates its sub-packages, not the reverse", p, dep, chain(parent, p, dep)))
			}
			if top == "agent" && slices.Contains(providers, dep) && !slices.Contains(providers, p) {
				out = append(out, fmt.Sprintf("%s may not depend on the model provider %s (%s)", p, dep, chain(parent, p, dep)))
			}
		}
		if !slices.Contains(belowFaces, top) {
			continue
		}
		for _, dep := range append([]string{p}, sortedKeys(parent)...) {
			for _, ext := range g.external[dep] {
				for _, lib := range rpcLibraries {
					if strings.HasPrefix(ext, lib) {
						out = append(out, fmt.Sprintf("%s depends on %s through %s: nothing below the faces knows the protocol", p, ext, dep))
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// reach is every module package p depends on, each with the package that
// imports it on a shortest path from p.
func reach(g graph, p string) map[string]string {
	parent := map[string]string{}
	queue := []string{p}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, imp := range g.local[cur] {
			if _, seen := parent[imp]; seen || imp == p {
				continue
			}
			parent[imp] = cur
			queue = append(queue, imp)
		}
	}
	return parent
}

// chain is the import path from p to dep: "p → a → dep".
func chain(parent map[string]string, p, dep string) string {
	path := []string{dep}
	for cur := dep; cur != p; {
		cur = parent[cur]
		path = append([]string{cur}, path...)
	}
	return strings.Join(path, " → ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// topOf is a package folder's top folder ("agent" for "agent/tools").
func topOf(p string) string {
	top, _, _ := strings.Cut(p, "/")
	return top
}

// moduleRoot finds go.mod above the test's folder and reads the module path.
func moduleRoot(t *testing.T) (root, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(sc.Text(), "module "); ok {
					return dir, strings.TrimSpace(rest)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

// load parses the imports of every non-test Go file of the module (every
// build tag and GOOS at once: an arrow broken on one platform is broken).
func load(root, module string) (graph, error) {
	g := graph{local: map[string][]string{}, external: map[string][]string{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("parse %s: %w", path, err)
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if pkg == "." {
			pkg = ""
		}
		if _, ok := g.local[pkg]; !ok {
			g.local[pkg] = nil
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: import %s: %w", path, spec.Path.Value, err)
			}
			switch {
			case imp == module:
				g.local[pkg] = append(g.local[pkg], "")
			case strings.HasPrefix(imp, module+"/"):
				g.local[pkg] = append(g.local[pkg], strings.TrimPrefix(imp, module+"/"))
			default:
				g.external[pkg] = append(g.external[pkg], imp)
			}
		}
		return nil
	})
	return g, err
}

// TestSubpackagesDocumented: every package under an orchestrator's folder
// has a row in docs/contributing.md's "Where things live in agent" table,
// and every row names a package that exists, so a newcomer finds each
// sub-package and its job there.
func TestSubpackagesDocumented(t *testing.T) {
	root, module := moduleRoot(t)
	g, err := load(root, module)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "contributing.md"))
	if err != nil {
		t.Fatal(err)
	}
	const heading = "## Where things live in `agent`"
	_, section, ok := strings.Cut(string(doc), heading)
	if !ok {
		t.Fatalf("docs/contributing.md has no %q section", heading)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	rowNames := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, part := range strings.Split(first, "`") {
			if strings.HasPrefix(part, "agent/") {
				rowNames[part] = true
			}
		}
	}
	documented := func(p string) bool {
		for cur := p; strings.Contains(cur, "/"); cur = path.Dir(cur) {
			if rowNames[cur] {
				return true
			}
		}
		return false
	}
	for p := range g.local {
		if slices.Contains(orchestrators, topOf(p)) && p != topOf(p) && !strings.Contains(p, "/internal") && !testSupport(p) && !documented(p) {
			t.Errorf("%s has no row in docs/contributing.md's %q table", p, heading)
		}
	}
	for name := range rowNames {
		if _, ok := g.local[name]; !ok {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
				t.Errorf("docs/contributing.md's table names %s, which does not exist", name)
			}
		}
	}
}
