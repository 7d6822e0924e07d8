// Package agentkinds is the kinds of sub-agents the task tool starts
// (docs/subagents.md): the built-in explore and build, and the user's own,
// Markdown files with a frontmatter (`.agentls/agents/<name>.md`,
// `$XDG_CONFIG_HOME/agentls/agents/<name>.md`) that narrow a built-in base
// (its tools, its model, its turns) and add instructions. A kind never
// widens what its base may do; the sessions that run kinds are agent's.
package agentkinds

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/agent/mdfile"
	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
)

// The built-in kinds of sub-agents; a user kind names one as its base.
const (
	// Explore searches and reads; it changes nothing.
	Explore = "explore"
	// Build carries out steps of the approved plan.
	Build = "build"
)

// Tools no build sub-agent gets: it cannot switch modes or ask for a plan's
// approval (the user's decisions, taken in the root session).
var buildExcluded = []string{"enter_plan_mode", "exit_plan_mode"}

// TaskTool is the tool that starts sub-agents.
const TaskTool = "task"

// Kind is a kind of sub-agent: a built-in one or the user's
// (`.agentls/agents/<name>.md`, `$XDG_CONFIG_HOME/agentls/agents/<name>.md`).
type Kind struct {
	Name, Description string
	// Base is Explore or Build: what the kind may do at most.
	Base string
	// Tools, when set, narrows the base's tools to these names.
	Tools []string
	// Model names the kind's model ("" uses the parent's mode model).
	Model string
	// MaxTurns lowers the configured budget when set.
	MaxTurns int
	// Instructions is a user kind's body, put in the sub-agent's prompt.
	Instructions string
	// Source ("built-in", "project", "user") and Path say where it was read.
	Source, Path string
}

// builtins are the built-in kinds, by name.
var builtins = map[string]*Kind{
	Explore: {Name: Explore, Base: Explore, Source: "built-in",
		Description: "searches and reads the workspace and answers a question; changes nothing"},
	Build: {Name: Build, Base: Build, Source: "built-in",
		Description: "carries out named steps of the approved plan (build mode only)"},
}

// ToolsOf is the tool set of a kind below parent's (nil: the root): the
// base's tools from reg, narrowed to the kind's own list, then to the
// parent's grant; task only for a build base when another level is
// allowed. explore's base is every read-only, unattended tool of the
// registry (the built-in read tools, the `code` navigation tool when it is
// registered, and the MCP tools the user listed as read-only in
// mcp.read_only), never task.
func ToolsOf(reg *tools.Registry, k *Kind, parentGrant *guard.Grant, nestOK bool) []string {
	var out []string
	for _, name := range reg.Names() {
		d, ok := reg.Declarations().Lookup(name)
		if !ok {
			continue
		}
		switch k.Base {
		case Explore:
			if name == TaskTool || d.Class != guard.ClassReadOnly || d.Interaction != guard.Unattended {
				continue
			}
		case Build:
			if slices.Contains(buildExcluded, name) || d.Interaction == guard.SwitchesMode || (name == TaskTool && !nestOK) {
				continue
			}
		default:
			continue
		}
		if k.Tools != nil && !slices.Contains(k.Tools, name) {
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

// Folder is a kinds folder and where it is ("project" or "user").
type Folder struct {
	Dir, Source string
	// Within, for a repository's folder, is the workspace root: Dir must
	// be a real folder below it, no symbolic link on the way
	// (mdfile.ReadDir).
	Within string
}

// Read is the kinds of sub-agents now: the built-in ones, then those of
// folders (a later folder wins over an earlier one for the same name;
// none shadows a built-in). Files that cannot be used are logged and left
// out.
func Read(folders []Folder) map[string]*Kind {
	out := map[string]*Kind{}
	for n, k := range builtins {
		out[n] = k
	}
	for _, d := range folders {
		for _, k := range readAgentDir(d.Dir, d.Source, d.Within) {
			if _, builtin := builtins[k.Name]; builtin {
				slog.Warn("sub-agent kind ignored: a built-in kind has its name", "path", k.Path)
				continue
			}
			out[k.Name] = k
		}
	}
	return out
}

// Names lists kinds' names, sorted, for a message.
func Names(kinds map[string]*Kind) string {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// readAgentDir reads the *.md kind files of dir (mdfile.Listed);
// files that cannot be used are logged and left out.
func readAgentDir(dir, source, within string) []*Kind {
	entries, err := mdfile.ReadDir(dir, within)
	if err != nil {
		if !os.IsNotExist(err) {
			slog.Warn("read sub-agent kinds folder", "dir", dir, "err", err)
		}
		return nil
	}
	var out []*Kind
	for _, e := range entries {
		file, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || !mdfile.Listed(e, within) {
			continue
		}
		if len(out) == maxUserKinds {
			slog.Warn("too many sub-agent kinds: the rest are ignored", "dir", dir, "max", maxUserKinds)
			break
		}
		path := filepath.Join(dir, e.Name())
		k, err := readAgentFile(path, file, source, within)
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

// readAgentFile reads one kind file (a repository's, below within, through
// no symbolic link): frontmatter (name defaults to the file's name; base
// is required) and body (the kind's instructions).
func readAgentFile(path, file, source, within string) (*Kind, error) {
	data, err := mdfile.Read(path, within, maxAgentFileBytes)
	if err != nil {
		return nil, err
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
func newUserKind(meta agentFront, file, body, source, path string) (*Kind, error) {
	name := strings.TrimSpace(meta.Name)
	if name == "" {
		name = file
	}
	if !mdfile.ValidName(name) {
		return nil, fmt.Errorf("name %q: use letters, digits, '.', '_' or '-'", name)
	}
	base := strings.TrimSpace(meta.Base)
	if base != Explore && base != Build {
		return nil, fmt.Errorf("base must be explore or build, not %q", base)
	}
	if meta.MaxTurns < 0 {
		return nil, fmt.Errorf("max_turns must not be negative")
	}
	k := &Kind{Name: name, Description: textline.OneLine(meta.Description), Base: base, Model: strings.TrimSpace(meta.Model),
		MaxTurns: meta.MaxTurns, Instructions: strings.TrimSpace(body), Source: source, Path: path}
	if meta.Tools != nil {
		k.Tools = []string{}
		for _, t := range meta.Tools {
			k.Tools = append(k.Tools, strings.TrimSpace(t))
		}
	}
	return k, nil
}
