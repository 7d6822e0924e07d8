package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzGrantsNeverReachExcluded: whatever the layout and the excluded
// paths, no read rule covers a denied path and no write rule covers a
// read-only or denied one (Landlock rights reach everything below a rule),
// and none covers a fixed folder (its own entries stay as they are).
func FuzzGrantsNeverReachExcluded(f *testing.F) {
	f.Add("a/b/c,a/d,e", "a/b", "a", "")
	f.Add(".ssh/id,.git/hooks/x,src/main.go", ".ssh", ".git", "")
	f.Add("x/y/z", "x/y/z", "x/y", "")
	f.Add(".git/hooks/pre-commit,.git/config,.git/objects/a,.git/HEAD,src/x", "", ".git/hooks,.git/config", ".git")
	f.Fuzz(func(t *testing.T, files, deny, ro, fixed string) {
		root := t.TempDir()
		clean := func(list string) []string {
			var out []string
			for _, p := range strings.Split(list, ",") {
				p = filepath.Clean("/" + p)[1:]
				if p == "" || len(p) > 40 || strings.ContainsAny(p, "\x00") {
					continue
				}
				out = append(out, filepath.Join(root, p))
			}
			return out
		}
		for _, f := range clean(files) {
			if os.MkdirAll(filepath.Dir(f), 0o755) == nil {
				os.WriteFile(f, nil, 0o644)
			}
		}
		s := spec{Writable: []string{root}, ReadOnly: clean(ro), Deny: clean(deny), Bwrap: false}
		var reads, writes []grant
		carve(root, s.Deny, nil, &reads, readTree, readFile, listTree)
		fx := slices.DeleteFunc(clean(fixed), func(p string) bool { return !isDir(p) }) // folders only
		carve(root, append(s.ReadOnly, s.Deny...), fx, &writes, writeTree, writeFile, -1)
		for _, g := range reads {
			for _, d := range s.Deny {
				if g.kind != listTree && within(d, g.path) {
					t.Fatalf("read rule %v reaches denied %s", g, d)
				}
			}
		}
		for _, g := range writes {
			for _, x := range append(s.ReadOnly, s.Deny...) {
				if within(x, g.path) {
					t.Fatalf("write rule %v reaches excluded %s", g, x)
				}
			}
			for _, x := range fx {
				if within(x, g.path) {
					t.Fatalf("write rule %v reaches fixed folder %s", g, x)
				}
			}
		}
	})
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false}, {"/a/..b", "/a", true},
		{"/", "/a", false}, {"/a", "/", true},
	} {
		if got := within(c.path, c.dir); got != c.want {
			t.Errorf("within(%q, %q) = %v", c.path, c.dir, got)
		}
	}
}

// TestStatusModes: which layers each mode gets, and the one-line summary.
func TestStatusModes(t *testing.T) {
	full := Probe{LandlockABI: 7, BwrapPath: "/usr/bin/bwrap"}
	noBwrap := Probe{LandlockABI: 7, BwrapErr: "not installed (install bubblewrap)"}
	none := Probe{LandlockErr: "the kernel has no Landlock", BwrapErr: "not installed (install bubblewrap)"}
	for _, c := range []struct {
		probe    Probe
		mode     Mode
		want     string
		confines bool
		network  bool
		summary  string
	}{
		{full, ModeAuto, "landlock+bwrap", true, true, "network off unless run.network"},
		{full, "", "landlock+bwrap", true, true, ""},
		{full, ModeLandlock, "landlock", true, true, "network off (no loopback either: install bubblewrap for one)"},
		{full, ModeBwrap, "bwrap", true, true, ""},
		{full, ModeOff, "off", false, false, "every command is asked"},
		{noBwrap, ModeAuto, "landlock", true, true, "no unix sockets, network off (no loopback"},
		{noBwrap, ModeBwrap, "none", false, false, "every command is asked"},
		{none, ModeAuto, "none", false, false, "the kernel has no Landlock"},
	} {
		st := c.probe.Status(c.mode)
		if st.Mode != c.want || st.Confines() != c.confines || st.Network != c.network || !strings.Contains(st.Summary, c.summary) {
			t.Errorf("%+v in mode %q: %+v", c.probe, c.mode, st)
		}
		if st.NoLoopback() != (st.Mode == "landlock") {
			t.Errorf("%+v in mode %q: NoLoopback = %v; only Landlock alone loses it", c.probe, c.mode, st.NoLoopback())
		}
	}
}

// TestSpecRoundTrip: the launcher reads back what Prepare wrote, and
// refuses garbage with an error.
func TestSpecRoundTrip(t *testing.T) {
	s := spec{Landlock: true, NoNetwork: true, Writable: []string{"/w"}, Deny: []string{"/d"}, Set: map[string]string{"A": "b"}, Unset: []string{"X"}}
	enc, err := s.encode()
	must(t, err)
	got, err := decodeSpec(enc)
	if err != nil || !got.Landlock || !got.NoNetwork || got.NoUnixSockets || got.Writable[0] != "/w" || got.Set["A"] != "b" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	for _, bad := range []string{"!!", "e30", strings.Repeat("A", maxSpec+1)} {
		if _, err := decodeSpec(bad); err == nil && bad != "e30" {
			t.Errorf("decodeSpec(%.10q) accepted", bad)
		}
	}
	if err := Exec([]string{"--policy"}); err == nil {
		t.Errorf("Exec without a command: no error")
	}
	// A policy that wants the reaper's watch but no socket to it: refused
	// before anything is applied (fail closed).
	sup, err := spec{Supervised: true, Landlock: true}.encode()
	must(t, err)
	for _, args := range [][]string{
		{"--policy", sup, "--", "true"},
		{notifyFlag, "x", "--policy", sup, "--", "true"},
		{notifyFlag, "1", "--policy", sup, "--", "true"},
	} {
		if err := Exec(args); err == nil || !strings.Contains(err.Error(), notifyFlag) {
			t.Errorf("Exec(%q) = %v, want a refusal that names %s", args, err, notifyFlag)
		}
	}
}
