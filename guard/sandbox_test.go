package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// The sandbox setups of the tables.
const (
	setupDefault    = ""                  // the tree below
	setupPlansOut   = "plans-symlink-out" // plans/ is a symlink to a folder outside
	setupPlansInSrc = "plans-symlink-src" // plans/ is a symlink to src/plans inside
	setupNoPlans    = "no-plans"          // no plans/ folder yet
)

// sandbox is a temporary folder holding a workspace ws/ and a folder
// outside/ beside it:
//
//	ws/README.md, ws/main.go, ws/src/main.go, ws/src/util/helper.go, ws/src/emptydir/
//	ws/plans/existing.plan, notes.plan, readme.txt, sub/inner.plan, empty/, foo.plan/
//	ws/plans/to-src.plan   -> ../src/main.go       (.plan symlink to a source file)
//	ws/plans/to-out.plan   -> ../../outside/secret.plan (.plan symlink outside)
//	ws/plans/dangling.plan -> ../missing.plan      (dangling symlink)
//	ws/plans/to-plan.plan  -> existing.plan        (.plan symlink to a plan)
//	ws/plans/hard.plan     (hard link of ws/src/main.go)
//	ws/plans/to-empty-src  -> ../src/emptydir      (folder symlink out of plans/)
//	ws/plans/loop.plan     -> loop.plan            (symlink loop)
//	ws/outlink   -> ../outside       (folder symlink outside the workspace)
//	ws/srclink   -> src              (folder symlink inside)
//	ws/deeplink  -> src/util         (folder symlink one level deeper)
//	ws/chatslink -> .agentls/chats   (folder symlink into agentls's state)
//	ws/.agentls/chats/s1.chat
//	ws/.git/HEAD, config, refs/heads/main  (the version-control folders)
//	ws/mod/.git (a submodule's .git file), ws/mod/lib.go
//	ws/.hg/store/data, ws/vendor/dep/.svn/entries, ws/vendor/dep/dep.go
//	ws/.jj -> jjstore (a top-level protected symlink), ws/jjstore/repo/op
//	ws/gitlink -> .git/refs (folder symlink into .git)
//	ws/.agentls.yaml, ws/pkg/.agentls.yaml (agentls's configuration, by name)
//	ws/.mcp.json, ws/.vscode/mcp.json, ws/.vscode/settings.json (MCP server files)
//	ws/conf/team.yaml, ws/teamlink.yaml -> conf/team.yaml (the --config file, given as the link)
//	ws/home/.config/agentls/config.yaml (a user config folder inside the workspace)
//	outside/agentls-config/config.yaml (a user config folder outside)
//	ws/home/.local/state/agentls/trust/t.json (agentls's state folder inside the workspace)
//	ws/statelink -> home/.local/state/agentls (folder symlink into it)
//	outside/agentls-state/planlocks/l.json (agentls's state folder outside)
//	ws/.bashrc.d/, ws/.ssh/config.d/ (hidden folders a shell or ssh loads wholesale)
//	ws/plans/to-hidden -> ../.bashrc.d (folder symlink from plans/ into one)
//	outside/secret.plan, outside/passwd.plan, outside/plans/secret.plan
type sandbox struct {
	dir, ws, out string
	w            *workspace.Workspace
	g            *Guard
}

func newSandbox(t testing.TB, setup string) *sandbox {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sb, err := buildSandbox(dir, setup)
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// buildSandbox builds the sandbox tree of a setup in dir (a real path).
func buildSandbox(dir, setup string) (*sandbox, error) {
	sb := &sandbox{dir: dir, ws: filepath.Join(dir, "ws"), out: filepath.Join(dir, "outside")}
	files := map[string]string{
		"ws/README.md":                              "# readme\n",
		"ws/main.go":                                "package main\n",
		"ws/src/main.go":                            "package main\n\nfunc main() {}\n",
		"ws/src/util/helper.go":                     "package util\n",
		"ws/.agentls/chats/s1.chat":                 "---\nid: s1\nmode: plan\n---\n",
		"outside/secret.plan":                       "secret\n",
		"outside/passwd.plan":                       "root:x:0:0\n",
		"outside/plans/secret.plan":                 "outside plan\n",
		"ws/src/plans/existing.plan":                "---\ntitle: in src\n---\n",
		"ws/.git/HEAD":                              "ref: refs/heads/main\n",
		"ws/.git/config":                            "[core]\n",
		"ws/.git/refs/heads/main":                   "0000000000000000000000000000000000000000\n",
		"ws/mod/.git":                               "gitdir: ../.git/modules/mod\n",
		"ws/mod/lib.go":                             "package mod\n",
		"ws/.hg/store/data":                         "hg\n",
		"ws/vendor/dep/.svn/entries":                "svn\n",
		"ws/vendor/dep/dep.go":                      "package dep\n",
		"ws/jjstore/repo/op":                        "jj\n",
		"ws/.agentls.yaml":                          "run:\n  allow: []\n",
		"ws/pkg/.agentls.yaml":                      "run:\n  allow: []\n",
		"ws/.mcp.json":                              "{\"mcpServers\": {}}\n",
		"ws/.vscode/mcp.json":                       "{\"servers\": {}}\n",
		"ws/.vscode/settings.json":                  "{}\n",
		"ws/pkg/pkg.go":                             "package pkg\n",
		"ws/conf/team.yaml":                         "plan_mode:\n  default_active: true\n",
		"ws/home/.config/agentls/config.yaml":       "model:\n  name: x\n",
		"outside/agentls-config/config.yaml":        "model:\n  name: x\n",
		"ws/home/.local/state/agentls/trust/t.json": "{}\n",
		"outside/agentls-state/planlocks/l.json":    "{}\n",
	}
	dirs := []string{"ws/src/emptydir", "ws/.bashrc.d", "ws/.ssh/config.d"}
	links := map[string]string{ // link -> target
		"ws/outlink":       "../outside",
		"ws/srclink":       "src",
		"ws/deeplink":      "src/util",
		"ws/chatslink":     ".agentls/chats",
		"ws/.jj":           "jjstore",
		"ws/gitlink":       ".git/refs",
		"ws/teamlink.yaml": "conf/team.yaml",
		"ws/statelink":     "home/.local/state/agentls",
	}
	switch setup {
	case setupDefault:
		for name, text := range map[string]string{
			"ws/plans/existing.plan":  "---\ntitle: Existing\nstatus: draft\n---\n# Goal\n",
			"ws/plans/notes.plan":     "notes\n",
			"ws/plans/readme.txt":     "not a plan\n",
			"ws/plans/sub/inner.plan": "inner\n",
		} {
			files[name] = text
		}
		dirs = append(dirs, "ws/plans/empty", "ws/plans/foo.plan")
		for l, target := range map[string]string{
			"ws/plans/to-src.plan":   "../src/main.go",
			"ws/plans/to-out.plan":   "../../outside/secret.plan",
			"ws/plans/dangling.plan": "../missing.plan",
			"ws/plans/to-plan.plan":  "existing.plan",
			"ws/plans/to-empty-src":  "../src/emptydir",
			"ws/plans/loop.plan":     "loop.plan",
			"ws/plans/to-hidden":     "../.bashrc.d",
		} {
			links[l] = target
		}
	case setupPlansOut:
		links["ws/plans"] = "../outside/plans"
	case setupPlansInSrc:
		links["ws/plans"] = "src/plans"
	case setupNoPlans:
	default:
		return nil, fmt.Errorf("unknown setup %q", setup)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return nil, err
		}
	}
	for l, target := range links {
		if err := os.Symlink(filepath.FromSlash(target), filepath.Join(dir, filepath.FromSlash(l))); err != nil {
			return nil, err
		}
	}
	if setup == setupDefault {
		if err := os.Link(filepath.Join(sb.ws, "src", "main.go"), filepath.Join(sb.ws, "plans", "hard.plan")); err != nil {
			return nil, err
		}
	}
	w, err := workspace.New(sb.ws)
	if err != nil {
		return nil, err
	}
	sb.w = w
	sb.g = New(w, "plans", declaredTools).WithConfig(sb.configPaths()...).WithState(sb.statePaths()...)
	return sb, nil
}

// statePaths are the sandbox's state folders given to WithState: one
// inside the workspace (a workspace at the home folder) and one outside.
func (sb *sandbox) statePaths() []string {
	return []string{
		filepath.Join(sb.ws, "home", ".local", "state", "agentls"),
		filepath.Join(sb.out, "agentls-state"),
	}
}

// configPaths are the sandbox's configuration paths given to WithConfig: the
// --config file (as a symlink to its real file), a user config folder inside
// the workspace and one outside.
func (sb *sandbox) configPaths() []string {
	return []string{
		filepath.Join(sb.ws, "teamlink.yaml"),
		filepath.Join(sb.ws, "home", ".config", "agentls"),
		filepath.Join(sb.out, "agentls-config"),
	}
}

// expand replaces $WS and $OUT by the sandbox's real paths.
func (sb *sandbox) expand(s string) string {
	return strings.NewReplacer("$WS", sb.ws, "$OUT", sb.out).Replace(s)
}

var testEnteredAt = time.Date(2025, 1, 15, 10, 30, 0, 0, time.UTC)

func stateOf(m agentproto.Mode) State {
	return State{Mode: m, EnteredAt: testEnteredAt, EnteredReason: "user"}
}
