package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLandlockAloneGrantsNoDevice: under Landlock alone no rule reaches a
// device but the listed ones, whatever the writable folders name (a
// workspace at /, an allow_write of /dev/pts or /dev) — /dev/shm aside,
// which is carved as any folder. (Under bwrap, whose `--dev /dev` comes
// last, a bind of the host's /dev/pts or /dev/shm is out of sight.)
func TestLandlockAloneGrantsNoDevice(t *testing.T) {
	shmWS := ""
	if fi, err := os.Stat(landlockShm); err == nil && fi.IsDir() {
		d, err := os.MkdirTemp(landlockShm, "rules-")
		must(t, err)
		t.Cleanup(func() { os.RemoveAll(d) })
		must(t, os.MkdirAll(filepath.Join(d, ".git"), 0o755))
		shmWS = d
	}
	home := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	for _, c := range []struct {
		name     string
		writable []string
	}{
		{"a workspace at the root", []string{"/"}},
		{"the user's terminals named writable", []string{"/dev/pts", "/dev/ptmx"}},
		{"/dev named writable", []string{"/dev"}},
		{"a workspace in shared memory", []string{shmWS}},
		{"nothing", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := spec{Landlock: true, Writable: slices.DeleteFunc(c.writable, func(w string) bool { return w == "" }),
				Deny: []string{filepath.Join(home, ".ssh")}}
			if shmWS != "" {
				s.ReadOnly = []string{filepath.Join(shmWS, ".git")}
			}
			for _, g := range s.grants() {
				switch {
				case !within(g.path, "/dev"):
				case g.path == "/dev" && g.kind == listTree:
				case g.kind == deviceFile && slices.Contains(landlockDevices, g.path):
				case within(g.path, landlockShm) && g.kind != deviceFile:
					if shmWS != "" && within(filepath.Join(shmWS, ".git"), g.path) && (g.kind == writeTree || g.kind == writeFile) {
						t.Errorf("%+v reaches a read-only path in shared memory", g)
					}
				default:
					t.Errorf("%+v: a device not listed", g)
				}
			}
		})
	}
}
