//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPromiseNoTruncateOutsideUnderOldLandlock: "writes only in the
// workspace" (docs/guard.md, Sandbox) holds under Landlock alone on every
// ABI, not only where Landlock knows truncation (ABI 3, Linux 6.2). Before
// ABI 3 the kernel leaves truncate(2) by path unchecked, so the launcher's
// truncate filter refuses it: a confined command on Linux 5.13–6.1
// (Ubuntu 22.04, Debian 12) without a usable bubblewrap (a dev container)
// cannot empty a file outside the workspace, the user's ~/.bashrc,
// .agentls/ sessions or .git/config. The row applies ABI 2's rules, as
// TestPromiseOtherProcesses applies ABI 5's; TestPromiseNoTruncatingOpen
// does the same for open(2) with O_TRUNC on a file opened for reading.
func TestPromiseNoTruncateOutsideUnderOldLandlock(t *testing.T) {
	noVictimEmptiedUnderABI2(t, "truncate(2) by path", `truncate($ARGV[0], 0) or die "truncate: $!\n"; print "truncated\n"`)
}

// TestPromiseNoTruncatingOpen: under Landlock before ABI 3, open(2) with
// O_TRUNC and O_RDONLY truncates a file Landlock lets the command read
// only (it checks the access the file is opened for); the truncate filter
// refuses such an open, so no file outside the workspace is emptied so.
func TestPromiseNoTruncatingOpen(t *testing.T) {
	noVictimEmptiedUnderABI2(t, "open(2) with O_TRUNC", `use Fcntl; sysopen(F, $ARGV[0], O_RDONLY|O_TRUNC) or die "open: $!\n"; print "truncated\n"`)
}

// noVictimEmptiedUnderABI2 runs the perl script (its one argument, a
// file's path; needing is what perl is needed for) as a command confined
// by Landlock alone with ABI 2's rules, against each file the workspace
// promise keeps, and fails the test for each file it emptied.
func noVictimEmptiedUnderABI2(t *testing.T, needing, script string) {
	t.Helper()
	requireLayers(t, ModeLandlock)
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("needs perl for " + needing)
	}
	probe := Detect()
	if probe.LandlockABI < 2 {
		t.Skipf("needs Landlock ABI 2 or later to apply ABI 2's rules: %d", probe.LandlockABI)
	}
	probe.LandlockABI = 2
	r := newRig(t)
	victims := map[string]string{
		"a file outside the workspace": filepath.Join(r.outside, "thesis.tex"),
		"a file in the home folder":    filepath.Join(r.home, ".bashrc"),
		"a session in .agentls":        filepath.Join(r.ws, ".agentls", "session.chat"),
		"the repository's config":      filepath.Join(r.ws, ".git", "config"),
	}
	for name, p := range victims {
		must(t, os.WriteFile(p, []byte("the user's work\n"), 0o644))
		if r.runAs != nil {
			must(t, os.Lchown(p, int(r.runAs.UID), int(r.runAs.GID)))
		}
		cmd, prep, err := commandWith(probe, r.policy(ModeLandlock), r.bin, []string{perl, "-e", script, p}, r.environ)
		must(t, err)
		cmd.Dir = r.ws
		out, _ := cmd.CombinedOutput()
		prep.Cleanup()
		if b, err := os.ReadFile(p); err != nil || string(b) != "the user's work\n" {
			t.Errorf("%s: a command under Landlock ABI 2 alone emptied %s (%q, %v): %s", name, p, b, err, out)
		}
	}
}
