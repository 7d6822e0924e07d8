package agent

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/agent/mdfile"
	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
)

// The built-in kinds of sub-agents; a user kind names one as its base.
const (
	kindExplore = "explore"
	kindBuild   = "build"
)

// Tools no build sub-agent gets: it cannot switch modes or ask for a plan's
// approval (the user's decisions, taken in the root session).
var buildExcluded = []string{"enter_plan_mode", "exit_plan_mode"}

// taskToolName is the tool that starts sub-agents.
const taskToolName = "task"

// agentKind is a kind of sub-agent: a built-in one or the user's
// (`.agentls/agents/<name>.md`, `$XDG_CONFIG_HOME/agentls/agents/<name>.md`).
type agentKind struct {
	name, description string
	// base is kindExplore or kindBuild: what the kind may do at most.
	base string
	// tools, when set, narrows the base's tools to these names.
	tools []string
	// model names the kind's model ("" uses the parent's mode model).
	model string
	// maxTurns lowers the configured budget when set.
	maxTurns int
	// instructions is a user kind's body, put in the sub-agent's prompt.
	instructions string
	// source ("built-in", "project", "user") and path say where it was read.
	source, path string
}

var builtinKinds = map[string]*agentKind{
	kindExplore: {name: kindExplore, base: kindExplore, source: "built-in",
		description: "searches and reads the workspace and answers a question; changes nothing"},
	kindBuild: {name: kindBuild, base: kindBuild, source: "built-in",
		description: "carries out named steps of the approved plan (build mode only)"},
}

// kindTools is the tool set of a kind below parent's (nil: the root): the
// base's tools from reg, narrowed to the kind's own list, then to the
// parent's grant; task only for a build base when another level is
// allowed. explore's base is every read-only, unattended tool of the
// registry (the built-in read tools, the `code` navigation tool when it is
// registered, and the MCP tools the user listed as read-only in
// mcp.read_only), never task.
func kindTools(reg *tools.Registry, k *agentKind, parentGrant *guard.Grant, nestOK bool) []string {
	var out []string
	for _, name := range reg.Names() {
		d, ok := reg.Declarations().Lookup(name)
		if !ok {
			continue
		}
		switch k.base {
		case kindExplore:
			if name == taskToolName || d.Class != guard.ClassReadOnly || d.Interaction != guard.Unattended {
				continue
			}
		case kindBuild:
			if slices.Contains(buildExcluded, name) || d.Interaction == guard.SwitchesMode || (name == taskToolName && !nestOK) {
				continue
			}
		default:
			continue
		}
		if k.tools != nil && !slices.Contains(k.tools, name) {
			continue
		}
		if !parentGrant.Allows(name) {
			continue
		}
		out = append(out, name)
	}
	return out
}

// Limits of the user kinds read.
const (
	maxAgentFileBytes = 64 << 10
	maxUserKinds      = 100
)

// kinds are the kinds of sub-agents now: the built-in ones, the user's own
// and, once the user trusted the workspace, the project's (the user's own
// wins over the project's for the same name; neither shadows a built-in).
func (m *Manager) kinds() map[string]*agentKind {
	out := map[string]*agentKind{}
	for n, k := range builtinKinds {
		out[n] = k
	}
	var dirs []struct{ dir, source string }
	if m.projectAgentsTrusted != nil && m.projectAgentsTrusted() {
		dirs = append(dirs, struct{ dir, source string }{filepath.Join(m.ws.Root(), ".agentls", "agents"), "project"})
	}
	if m.userAgentsDir != "" {
		dirs = append(dirs, struct{ dir, source string }{m.userAgentsDir, "user"})
	}
	for _, d := range dirs {
		for _, k := range readAgentDir(d.dir, d.source) {
			if _, builtin := builtinKinds[k.name]; builtin {
				slog.Warn("sub-agent kind ignored: a built-in kind has its name", "path", k.path)
				continue
			}
			out[k.name] = k
		}
	}
	return out
}

// kindNames lists kinds' names, sorted.
func kindNames(kinds map[string]*agentKind) string {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// readAgentDir reads the *.md kind files of dir (regular files only);
// files that cannot be used are logged and left out.
func readAgentDir(dir, source string) []*agentKind {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !os.IsNotExist(err) {
			slog.Warn("read sub-agent kinds folder", "dir", dir, "err", err)
		}
		return nil
	}
	var out []*agentKind
	for _, e := range entries {
		file, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if len(out) == maxUserKinds {
			slog.Warn("too many sub-agent kinds: the rest are ignored", "dir", dir, "max", maxUserKinds)
			break
		}
		path := filepath.Join(dir, e.Name())
		k, err := readAgentFile(path, file, source)
		if err != nil {
			slog.Warn("sub-agent kind ignored", "path", path, "err", err)
			continue
		}
		out = append(out, k)
	}
	return out
}

// agentFront is a kind file's frontmatter.
type agentFront struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Base        string   `yaml:"base"`
	Tools       []string `yaml:"tools"`
	Model       string   `yaml:"model"`
	MaxTurns    int      `yaml:"max_turns"`
}

// readAgentFile reads one kind file: frontmatter (name defaults to the
// file's name; base is required) and body (the kind's instructions).
func readAgentFile(path, file, source string) (*agentKind, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxAgentFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxAgentFileBytes {
		return nil, fmt.Errorf("larger than %d KiB", maxAgentFileBytes>>10)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("not UTF-8 text")
	}
	front, body, err := mdfile.Split(data)
	if err != nil {
		return nil, err
	}
	if front == nil {
		return nil, fmt.Errorf("no frontmatter: a kind needs at least `base: explore` or `base: build`")
	}
	var meta agentFront
	dec := yaml.NewDecoder(strings.NewReader(string(front)))
	dec.KnownFields(true)
	if err := dec.Decode(&meta); err != nil && err != io.EOF {
		return nil, fmt.Errorf("frontmatter: %v", textline.OneLine(err.Error()))
	}
	return newUserKind(meta, file, body, source, path)
}

// newUserKind checks a kind's frontmatter: a name of letters, digits, '.',
// '_' or '-'; a base of explore or build; max_turns not negative.
func newUserKind(meta agentFront, file, body, source, path string) (*agentKind, error) {
	name := strings.TrimSpace(meta.Name)
	if name == "" {
		name = file
	}
	if !mdfile.ValidName(name) {
		return nil, fmt.Errorf("name %q: use letters, digits, '.', '_' or '-'", name)
	}
	base := strings.TrimSpace(meta.Base)
	if base != kindExplore && base != kindBuild {
		return nil, fmt.Errorf("base must be explore or build, not %q", base)
	}
	if meta.MaxTurns < 0 {
		return nil, fmt.Errorf("max_turns must not be negative")
	}
	k := &agentKind{name: name, description: textline.OneLine(meta.Description), base: base, model: strings.TrimSpace(meta.Model),
		maxTurns: meta.MaxTurns, instructions: strings.TrimSpace(body), source: source, path: path}
	if meta.Tools != nil {
		k.tools = []string{}
		for _, t := range meta.Tools {
			k.tools = append(k.tools, strings.TrimSpace(t))
		}
	}
	return k, nil
}
