package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// TestRunGitFileCannotWidenTheSandbox: a `.git` file that a command wrote
// into a workspace without a repository (the sandbox cannot protect a
// path that does not exist yet) must not make another folder writable for
// the next command the user approves: two approved `go test` runs would
// otherwise write the home folder. The command that plants the file, and
// the one that then tries to write through it, run for real.
func TestRunGitFileCannotWidenTheSandbox(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	outside := t.TempDir() // stands for the home folder
	env := newFake(t, nil)
	var got RunOutput
	value(t, call(t, runTool, env, `{"command":"printf 'gitdir: `+outside+`\\n' > .git"}`), &got)
	if got.ExitCode != 0 {
		t.Fatalf("the first command could not write .git: %+v", got)
	}
	got = RunOutput{}
	value(t, call(t, runTool, env, `{"command":"echo x > `+filepath.Join(outside, "pwned")+`"}`), &got)
	if _, err := os.Stat(filepath.Join(outside, "pwned")); err == nil {
		t.Fatalf("an approved command wrote %s, which a planted .git file named: %+v", outside, got)
	}
}

// TestRunPolicyLinkedGitDir: in a git worktree or submodule (.git is a
// file naming the git folder elsewhere) a command the user approved may
// write that folder (and a worktree's common one); an auto-allowed
// command may not; and a `.git` file naming anything git did not lay out
// for this folder widens nothing. The layouts are git's own (`git
// worktree add`, `git submodule add`, git 2.39).
func TestRunPolicyLinkedGitDir(t *testing.T) {
	type layout struct {
		dotGit string            // the .git file's text; $R is the repository folder, $O a folder outside
		files  map[string]string // files under $R and $O
	}
	tests := []struct {
		name   string
		l      layout
		nested bool     // the workspace is $R/sub (a submodule) rather than a sibling of $R
		want   []string // writable besides the workspace, $R / $O replaced
	}{
		{"worktree", layout{"gitdir: $R/.git/worktrees/wt", map[string]string{
			"$R/.git/HEAD": "ref: refs/heads/main", "$R/.git/worktrees/wt/gitdir": "$W/.git", "$R/.git/worktrees/wt/commondir": "../.."}},
			false, []string{"$R/.git/worktrees/wt", "$R/.git"}},
		{"worktree with a relative back link", layout{"gitdir: $R/.git/worktrees/wt", map[string]string{
			"$R/.git/worktrees/wt/gitdir": "../../../../wt/.git", "$R/.git/worktrees/wt/commondir": "../.."}},
			false, []string{"$R/.git/worktrees/wt", "$R/.git"}},
		{"submodule", layout{"gitdir: ../.git/modules/sub", map[string]string{
			"$R/.git/HEAD": "ref: refs/heads/main", "$R/.git/modules/sub/HEAD": "ref: refs/heads/main"}},
			true, []string{"$R/.git/modules/sub"}},
		{"a folder outside (planted)", layout{"gitdir: $O", map[string]string{"$O/HEAD": "x"}}, false, nil},
		{"the home folder, relative", layout{"gitdir: ..", nil}, false, nil},
		{"a worktree folder without a back link", layout{"gitdir: $R/.git/worktrees/wt", map[string]string{
			"$R/.git/worktrees/wt/commondir": "../.."}}, false, nil},
		{"another worktree's folder", layout{"gitdir: $R/.git/worktrees/wt", map[string]string{
			"$R/.git/worktrees/wt/gitdir": "$O/other/.git", "$R/.git/worktrees/wt/commondir": "../.."}}, false, nil},
		{"a worktree whose commondir leads elsewhere", layout{"gitdir: $R/.git/worktrees/wt", map[string]string{
			"$R/.git/worktrees/wt/gitdir": "$W/.git", "$R/.git/worktrees/wt/commondir": "$O"}}, false, nil},
		{"a worktree of a bare repository", layout{"gitdir: $O/worktrees/wt", map[string]string{
			"$O/worktrees/wt/gitdir": "$W/.git", "$O/worktrees/wt/commondir": "../.."}}, false, []string{"$O/worktrees/wt", "$O"}},
		{"modules of a repository not above", layout{"gitdir: $O/.git/modules/sub", map[string]string{
			"$O/.git/modules/sub/HEAD": "x"}}, false, nil},
		{"the modules folder itself", layout{"gitdir: ../.git/modules", map[string]string{
			"$R/.git/modules/x/HEAD": "x"}}, true, nil},
		{"a worktree folder inside the workspace", layout{"gitdir: in/worktrees/wt", map[string]string{
			"$W/in/worktrees/wt/gitdir": "$W/.git", "$W/in/worktrees/wt/commondir": "../../../.."}}, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			repo, out := filepath.Join(base, "repo"), filepath.Join(base, "outside")
			ws := filepath.Join(base, "wt")
			if tc.nested {
				ws = filepath.Join(repo, "sub")
			}
			expand := func(s string) string {
				return strings.NewReplacer("$R", repo, "$O", out, "$W", ws).Replace(s)
			}
			for _, d := range []string{repo, out, ws} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for p, content := range tc.l.files {
				writeFile(t, expand(p), expand(content)+"\n")
			}
			writeFile(t, filepath.Join(ws, ".git"), expand(tc.l.dotGit)+"\n")
			var want []string
			for _, w := range tc.want {
				want = append(want, expand(w))
			}
			got := linkedGitDirs(ws, []string{ws})
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("linked git folders %q, want %q", got, want)
			}
			cfg := config.Default()
			if p := CommandPolicy(cfg, []string{ws}, false, Unasked); len(p.Writable) != 1 {
				t.Errorf("auto-allowed: writable %q holds more than the workspace", p.Writable)
			}
			if p := CommandPolicy(cfg, []string{ws}, false, approvedCommand("go test", nil)); len(p.Writable) != 1+len(want) {
				t.Errorf("approved: writable %q, want the workspace and %q", p.Writable, want)
			}
		})
	}
}
