package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestNewRepoListingInTempRoot: the copy a new repository's configuration
// is listed from stands in this process's own temporary folder
// (sandbox.TempRoot, which a later agentls removes once this one is gone,
// killed during the listing included), and the confined git still reads
// it in every mode — with the workspace elsewhere, around the system's
// temporary folder, or inside the process's folder (the demo's). A git
// planted first on PATH says where it ran, then lists with the real one.
// Failed before (os.MkdirTemp("", …)): the folder stood in $TMPDIR, where
// nothing removes it after a kill.
func TestNewRepoListingInTempRoot(t *testing.T) {
	requireGit(t)
	realGit, _ := exec.LookPath("git")
	root, err := sandbox.TempRoot()
	if err != nil {
		t.Fatal(err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	writeFile(t, filepath.Join(bin, "git"), "#!/bin/sh\nprintf 'probe.dir\\n%s\\0' \"$(pwd -P)\"\nexec "+realGit+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	workspaces := []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"workspace elsewhere", func(t *testing.T) string { return t.TempDir() }},
		{"workspace around TMPDIR", func(*testing.T) string { return filepath.Dir(root) }},
		{"workspace in the temp root", func(t *testing.T) string {
			ws, err := os.MkdirTemp(root, "agentls-demo-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(ws) })
			return ws
		}},
	}
	for _, mode := range []string{"off", "landlock", "bwrap", "auto"} {
		for _, w := range workspaces {
			t.Run(mode+"/"+w.name, func(t *testing.T) {
				if mode != "off" {
					requireMode(t, mode)
				}
				ws := w.dir(t)
				// The planted git's folder is in the system's temporary
				// folder too: the workspace denies reading, another folder
				// stands for the untrusted PATH entries.
				cmd := sandbox.Policy{Mode: sandbox.Mode(mode), UntrustedPath: []string{t.TempDir()}, DenyRead: sandbox.DefaultDenyRead(t.TempDir())}
				entries, err := gitListConfig([]byte("[core]\n\tbare = false\n"), listPolicy(cmd, []string{ws}))
				if err != nil {
					t.Fatalf("the listing failed: %v", err)
				}
				var ranIn string
				listed := false
				for _, e := range entries {
					switch e.key {
					case "probe.dir":
						ranIn = e.value
					case "core.bare":
						listed = e.value == "false"
					}
				}
				if !listed {
					t.Errorf("git did not list the copy: %v", entries)
				}
				if filepath.Dir(ranIn) != realRoot {
					t.Errorf("the listing ran in %q, want a folder in this process's temp root %s", ranIn, realRoot)
				}
				if _, err := os.Lstat(ranIn); !os.IsNotExist(err) {
					t.Errorf("the listing's folder %s stays after it (%v)", ranIn, err)
				}
			})
		}
	}
}
