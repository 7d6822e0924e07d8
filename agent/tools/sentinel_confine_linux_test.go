package tools

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestNewRepoListingConfined: the git that lists a new repository's
// configuration after a command runs in the sandbox, in the command's
// mode (listPolicy): a git (here a script on a PATH entry the policy
// trusts, standing for a git bug a crafted configuration reaches) that
// writes outside its temporary folder, or connects to the host's
// 127.0.0.1, cannot — while the listing still works, in every mode. It
// says what it managed by adding entries to its output. With the sandbox
// off it can (docs/guard.md "After the command"); under Landlock alone the
// socket filter keeps it off the network (it reached 127.0.0.1 there
// before the filter's network clause). Failed on b6eedb7 (gitListConfig(data, []string{ws})):
// the listing ran unconfined, the write got through.
func TestNewRepoListingConfined(t *testing.T) {
	requireGit(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash (for /dev/tcp) is not installed")
	}
	realGit, _ := exec.LookPath("git")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, tc := range []struct {
		mode           string
		write, network bool // what the planted git manages
	}{
		{"off", true, true},
		{"landlock", false, false}, // the socket filter: no IP socket
		{"bwrap", false, false},
		{"auto", false, false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			if tc.mode != "off" {
				requireMode(t, tc.mode)
			}
			outside, bin, ws := t.TempDir(), t.TempDir(), t.TempDir()
			marker := filepath.Join(outside, "pwned")
			writeFile(t, filepath.Join(bin, "git"), "#!/bin/bash\n"+
				"echo ran > "+marker+" 2>/dev/null && printf 'probe.wrote\\ntrue\\0'\n"+
				"(exec 3<>/dev/tcp/127.0.0.1/"+port+") 2>/dev/null && printf 'probe.connected\\ntrue\\0'\n"+
				"exec "+realGit+" \"$@\"\n")
			if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			cmd := sandbox.Policy{Mode: sandbox.Mode(tc.mode), UntrustedPath: []string{ws}, DenyRead: sandbox.DefaultDenyRead(t.TempDir())}
			entries, err := gitListConfig([]byte("[core]\n\tbare = false\n\tfsmonitor = /opt/x\n"), listPolicy(cmd, []string{ws}))
			if err != nil {
				t.Fatalf("mode %s: %v", tc.mode, err)
			}
			keys := make([]string, len(entries))
			for i, e := range entries {
				keys[i] = e.key
			}
			if !slices.Contains(keys, "core.bare") || !slices.Contains(keys, "core.fsmonitor") {
				t.Errorf("mode %s: listed %v", tc.mode, keys)
			}
			_, statErr := os.Stat(marker)
			if wrote := statErr == nil; wrote != tc.write || slices.Contains(keys, "probe.wrote") != tc.write {
				t.Errorf("mode %s: the listing's git wrote outside = %v (it says %v), want %v", tc.mode, wrote, slices.Contains(keys, "probe.wrote"), tc.write)
			}
			if got := slices.Contains(keys, "probe.connected"); got != tc.network {
				t.Errorf("mode %s: the listing's git reached 127.0.0.1 = %v, want %v", tc.mode, got, tc.network)
			}
		})
	}
}
