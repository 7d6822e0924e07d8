package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSearchPath: a confined command's PATH keeps the absolute entries
// outside the given folders, in order, and drops relative entries (empty,
// `.`, `bin`) and entries at or below a folder, as written or through a
// symlink.
func TestSearchPath(t *testing.T) {
	ws := t.TempDir()
	other := t.TempDir()
	link := filepath.Join(other, "to-ws-bin")
	if err := os.MkdirAll(filepath.Join(ws, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "bin"), link); err != nil {
		t.Fatal(err)
	}
	folders := []string{ws}
	tests := []struct{ path, want string }{
		{"/usr/bin:/bin", "/usr/bin:/bin"},
		{":/usr/bin", "/usr/bin"},
		{"/usr/bin:", "/usr/bin"},
		{"/usr/bin::/bin", "/usr/bin:/bin"},
		{".:/usr/bin", "/usr/bin"},
		{"node_modules/.bin:/usr/bin", "/usr/bin"},
		{ws + ":/usr/bin", "/usr/bin"},
		{ws + "/bin:/usr/bin", "/usr/bin"},
		{ws + "/x/../bin:/usr/bin", "/usr/bin"},
		{link + ":/usr/bin", "/usr/bin"},
		{ws + "-sibling/bin:/usr/bin", ws + "-sibling/bin:/usr/bin"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := searchPath(tc.path, folders); got != tc.want {
			t.Errorf("searchPath(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if got := searchPath(".:/usr/bin", nil); got != "/usr/bin" {
		t.Errorf("without folders a relative entry stays: %q", got)
	}
}

// TestUnconfinedLookUp: a process no sandbox confines (mode off, or no
// layer here) is still never looked up in a workspace folder or through a
// relative PATH entry, and its environment's PATH lacks them too.
func TestUnconfinedLookUp(t *testing.T) {
	ws := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(ws, "bin"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "bin", "true"), []byte("#!/bin/sh\necho planted\n"), 0o755))
	system, err := exec.LookPath("true")
	must(t, err)
	t.Setenv("PATH", filepath.Join(ws, "bin")+":.:"+filepath.Dir(system))
	pol := Policy{Mode: ModeOff, UntrustedPath: []string{ws}}
	p, err := Prepare(pol, "", []string{"true", "x"})
	must(t, err)
	// The command, behind the reaper where there is one (Linux).
	if cmd := p.Argv[len(p.Argv)-2:]; cmd[0] != system || cmd[1] != "x" {
		t.Errorf("unconfined argv %q, want %s first", p.Argv, system)
	}
	if p.Reaps != (p.Argv[0] != system) {
		t.Errorf("argv %q, Reaps %v", p.Argv, p.Reaps)
	}
	env := Environ(pol, []string{"HOME=/h", "PATH=" + os.Getenv("PATH")})
	if env[0] != "HOME=/h" || env[1] != "PATH="+filepath.Dir(system) {
		t.Errorf("Environ = %q", env)
	}
}
