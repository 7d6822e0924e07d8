package guard

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentls/agentls/workspace"
)

// stateDirName is agentls's own state folder at the top of a workspace folder.
const stateDirName = ".agentls"

// Guard decides, for one workspace, which tool calls and changes may go
// ahead. It holds no mode: every check takes the State read at that instant.
// It is safe for concurrent use.
type Guard struct {
	ws       *workspace.Workspace
	plansDir string // as configured, cleaned: workspace-relative or absolute
	tools    *Tools // the declared tools; nil knows none (all refused)
	// config are agentls's configuration files and folders known by path
	// (absolute, cleaned): the --config file, the user's config folder.
	config []string
	// state are agentls's state folders (WithState): absolute, cleaned.
	state []string
	// planOnly, when set, says why every session counts as in plan mode
	// here (WithPlanOnly).
	planOnly string
	// roots, on the copy of the guard one check works with (forCheck), are
	// the protected roots read once at its start; nil reads them on every
	// use.
	roots *[]protectedRoot
	// batch, on the copy of the guard one check works with (forCheck,
	// forRead), canonicalises the check's paths sharing their lstats; nil
	// canonicalises each path on its own. Never on a guard that outlives
	// the check.
	batch *workspace.CanonicalBatch
	// networkTools are the network-reach tools allowed in plan mode
	// (plan_mode.allow_network_tools).
	networkTools []string
}

// forCheck returns a copy of the guard for one check, which reads the
// protected roots (symlinks, configuration paths) once instead of at every
// path it looks at, and canonicalises all its paths in one batch.
func (g *Guard) forCheck() *Guard {
	c := g.forRead()
	r := c.protectedRoots()
	c.roots = &r
	return c
}

// forRead returns a copy of the guard for one read-only check: its paths
// are canonicalised in one batch (each place looked at once), and nothing
// else is read ahead.
func (g *Guard) forRead() *Guard {
	c := *g
	c.roots = nil
	c.batch = workspace.NewCanonicalBatch()
	return &c
}

// canonical is workspace.Canonical; on a check's copy it shares the
// check's batch.
func (g *Guard) canonical(p string) (string, error) {
	if g.batch != nil {
		return g.batch.Path(p)
	}
	return workspace.Canonical(p)
}

// WithConfig returns a copy of the guard that also protects agentls's
// configuration at these paths (files or folders, everything below a
// folder): the `--config` file and the user's config folder
// (`$XDG_CONFIG_HOME/agentls/`). Like `.agentls.yaml`, which is protected
// by name, no tool may change them in any mode. Relative and empty paths are
// ignored.
func (g *Guard) WithConfig(paths ...string) *Guard {
	c := *g
	c.config = withAbs(g.config, paths)
	return &c
}

// withAbs is a copy of list with the absolute paths of paths added,
// cleaned; relative and empty ones are left out, and so is a path the list
// holds already (the user's config folder comes both from the environment
// and from the manager's own list): each is canonicalised at every check,
// and a second copy would protect nothing more.
func withAbs(list, paths []string) []string {
	out := append([]string(nil), list...)
	for _, p := range paths {
		if filepath.IsAbs(p) && !slices.Contains(out, filepath.Clean(p)) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// New returns the guard of a workspace. plansDir is the plans folder as
// config's PlansDir resolves `plan_mode.plans_dir` (workspace-relative, forward
// slashes); the guard checks it again on real paths (CheckPlansDir), and ""
// is the whole workspace folder, which cannot hold plans. tools are the
// declared tools it judges (NewTools); any other tool, and every tool when
// tools is nil, is refused in every mode.
func New(ws *workspace.Workspace, plansDir string, tools *Tools) *Guard {
	return &Guard{ws: ws, plansDir: filepath.Clean(filepath.FromSlash(plansDir)), tools: tools}
}

// PlansDir is the plans folder as an absolute real path (symlinks
// evaluated). When the folder cannot hold plans (CheckPlansDir fails) it is
// the configured path joined to the workspace root, and mkdir/rm are refused
// in plan mode.
func (g *Guard) PlansDir() string {
	if p, err := g.plansReal(); err == nil {
		return p
	}
	return g.plansLexical()
}

// CheckPlansDir reports why the configured plans folder cannot hold plans
// (outside the workspace, reached through a symlink, a file, a workspace
// folder itself, or inside `.agentls/`); nil if it can. While it fails, plan
// mode refuses every mkdir and rm. The agent may call it at start-up to warn.
func (g *Guard) CheckPlansDir() error {
	_, err := g.plansReal()
	return err
}

func (g *Guard) plansLexical() string {
	if filepath.IsAbs(g.plansDir) {
		return g.plansDir
	}
	return filepath.Join(g.ws.Root(), g.plansDir)
}

// plansHint is the plans folder as the model should write it.
func (g *Guard) plansHint() string {
	if rel := g.ws.RelOf(g.plansLexical()); rel != "" && rel != "." {
		return rel + "/"
	}
	return filepath.ToSlash(g.plansDir) + "/"
}

// plansReal resolves the plans folder from scratch. It must be a real
// folder (or not exist yet) strictly inside a workspace folder, reached
// without symlinks, and outside agentls's state.
func (g *Guard) plansReal() (string, error) {
	p, err := g.ws.Resolve(g.plansDir)
	if err != nil {
		return "", fmt.Errorf("plans folder %s: %w", g.plansDir, err)
	}
	if lex := g.plansLexical(); p.Abs != lex {
		return "", fmt.Errorf("plans folder %s is reached through a symlink (%s)", lex, p.Abs)
	}
	if p.Exists && !p.IsDir {
		return "", fmt.Errorf("plans folder %s is not a folder", p.Abs)
	}
	if p.Rel == "." || p.Rel == "" {
		return "", fmt.Errorf("plans folder %s is a whole workspace folder", p.Abs)
	}
	if pr := g.protectedAt(p.Abs); pr != nil {
		return "", fmt.Errorf("plans folder %s is inside %s", p.Abs, pr.what)
	}
	return p.Abs, nil
}

// IsPlanTarget is the plan predicate on a resolved path: a `.plan` FILE (or a
// new file to be created as one) inside the workspace. It re-resolves Abs
// from scratch: a path that is (now) a symlink, a directory, something other
// than a regular file, or inside `.agentls/` is not a plan target. It does not
// see the name a caller gave; the checks of calls and changes test that too.
func (g *Guard) IsPlanTarget(p workspace.Path) bool {
	return g.planTargetErr(p) == nil
}

// under reports whether p is dir or inside it (both cleaned absolute paths).
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) || dir == string(filepath.Separator)
}

// strictlyUnder reports whether p is inside dir and not dir itself.
func strictlyUnder(p, dir string) bool {
	return p != dir && under(p, dir)
}

var errNotPlan = errors.New("not a .plan file")
