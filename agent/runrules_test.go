package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/allowrule"
)

// autoAllowRig is a build session whose workspace holds a.txt, sub/, and
// outlink, a symlink to a folder outside; run.allow is allow.
func autoAllowRig(t *testing.T, allow ...string) (*Session, string) {
	t.Helper()
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", &memEditor{}, func(c *config.Config) { c.Run.Allow = allow })
	root := m.ws.Root()
	outside := t.TempDir()
	for _, err := range []error{
		os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644),
		os.Mkdir(filepath.Join(root, "sub"), 0o755),
		os.Symlink(outside, filepath.Join(root, "outlink")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return newTestSession(t, m, "build"), root
}

// TestAutoAllow: a command runs unasked only in a workspace folder, with a
// rule that names its words, no option the rule does not allow, no path
// out of the workspace (symlinks followed) or into a protected folder; the
// question may offer "Always allow" only where the exact rule grants what
// it shows.
func TestAutoAllow(t *testing.T) {
	t.Parallel()
	s, root := autoAllowRig(t, "cat *", "git status", "go test --*", "touch *")
	s.allowed = append(s.allowed, mustExact(t, "make"))
	tests := []struct {
		command, cwd string
		rule         string
		offer        bool
		folder       string
	}{
		{"cat a.txt", "", "cat *", true, ""},
		{"cat a.txt", "sub", "", false, "sub"},
		{"git status", "sub", "", false, "sub"},
		{"cat outlink/secret", "", "", false, ""},
		{"cat ../x", "", "", false, ""},
		{"cat outlink/../x", "", "", false, ""},
		{"cat sub/../outlink/../x", "", "", false, ""},
		// A missing folder, then `..` and a symlink: the kernel (once the
		// folder exists: mkdir -p missing && cat …) reaches outside.
		{"cat missing/../outlink/../x", "", "", false, ""},
		{"cat sub/../a.txt", "", "cat *", true, ""},
		{"cat /etc/passwd", "", "", false, ""},
		{"cat .git/config", "", "", false, ""},
		{"touch .agentls/sessions/x", "", "", false, ""},
		{"touch .GIT/hooks/pre-commit", "", "", false, ""},
		{"cat -n a.txt", "", "", true, ""},
		{"cat *", "", "", false, ""},
		{"go test -v ./...", "", "go test --*", true, ""},
		{"go test -exec=./x ./...", "", "", false, ""},
		{"git status", "", "git status", true, ""},
		{"make", "", "make", true, ""},
		{"make all", "", "", true, ""},
		{"make; touch x", "", "", false, ""},
	}
	for _, tc := range tests {
		dir := filepath.Join(root, tc.cwd)
		d := s.autoAllow(tools.RunRequest{Command: tc.command, Dir: dir})
		if d.Rule != tc.rule || d.Offer != tc.offer || d.Folder != tc.folder {
			t.Errorf("%q in %q = %+v; want rule %q, offer %v, folder %q", tc.command, tc.cwd, d, tc.rule, tc.offer, tc.folder)
		}
		if d.Rule == "" && (d.Why == "" && d.NotSimple == "" && !strings.HasPrefix(tc.command, "make")) {
			t.Errorf("%q: asked without a reason", tc.command)
		}
	}
}

func mustExact(t *testing.T, line string) allowrule.Rule {
	t.Helper()
	r, err := allowrule.Exact(line)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// FuzzAutoAllow: whatever the command line and cwd, a command allowed
// unasked by "*", "cat --*" or "git --*" runs in the workspace root, and
// none of its words after the command name (nor the part after an `=`)
// names a path that resolves, by the file system itself, outside the
// workspace or into .git.
func FuzzAutoAllow(f *testing.F) {
	for _, seed := range []string{"cat outlink/../x", "cat --x=outlink/../../y", "cat a.txt", "cat outlink/x", "cat ../x", "git status", "cat -- -x", "cat --file=outlink", "cat sub/../outlink/x", "cat .git/config", "cat missing/../outlink/../x"} {
		f.Add(seed, "")
		f.Add(seed, "sub")
	}
	f.Fuzz(func(t *testing.T, command, cwd string) {
		s, root := autoAllowRig(t, "*", "cat --*", "git --*")
		dir := filepath.Join(root, cwd)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return
		}
		d := s.autoAllow(tools.RunRequest{Command: command, Dir: dir})
		if d.Rule == "" {
			return
		}
		if real, _ := filepath.EvalSymlinks(dir); real != root {
			t.Fatalf("%q ran unasked in %s, not the root", command, dir)
		}
		c, err := allowrule.Parse(command)
		if err != nil {
			t.Fatalf("%q ran unasked but does not parse: %v", command, err)
		}
		for _, w := range c.Words()[1:] {
			for _, p := range []string{w, w[strings.IndexByte(w, '=')+1:]} {
				if p == "" {
					continue
				}
				abs := p
				if !filepath.IsAbs(p) {
					abs = root + "/" + p
				}
				real := realPath(abs)
				if real != root && !strings.HasPrefix(real, root+"/") {
					t.Fatalf("%q ran unasked naming %s, outside the workspace", command, real)
				}
				if strings.Contains(strings.ToLower(real)+"/", "/.git/") {
					t.Fatalf("%q ran unasked naming %s, in .git", command, real)
				}
			}
		}
	})
}

// realPath is p (absolute, not cleaned) with symlinks evaluated as far as
// p exists, `..` after a symlink taken from its target (EvalSymlinks walks
// the path as the kernel does), and the missing rest appended: where the
// file system would take a command.
func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	elems := strings.Split(p, "/")
	for n := len(elems) - 1; n > 0; n-- {
		head := strings.Join(elems[:n], "/")
		if head == "" {
			head = "/"
		}
		if real, err := filepath.EvalSymlinks(head); err == nil {
			return filepath.Clean(real + "/" + strings.Join(elems[n:], "/"))
		}
	}
	return filepath.Clean(p)
}

// TestAlwaysAllowStoresTheLine: "Always allow" stores the line as shown, an
// exact rule: the same line runs unasked again in the root, but not with
// another word, nor in a subfolder; a line with a glob is not offered
// (answered "allow once" then), and a second call asks again.
func TestAlwaysAllowStoresTheLine(t *testing.T) {
	t.Parallel()
	var offered []bool
	ed := &memEditor{ask: func(_ context.Context, req AskRequest) (AskReply, error) {
		always := strings.Contains(string(req.Set.Questions[0].Schema), `"allow_always"`)
		offered = append(offered, always)
		if !always {
			return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
		}
		return AskReply{Answers: map[string]any{"decision": "allow_always"}}, nil
	}}
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", ed, nil)
	e := &env{s: newTestSession(t, m, "build")}
	root := m.ws.Root()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, call := range []struct {
		command, dir string
		auto         bool
	}{
		{"touch 'a b'", root, false},
		{"touch \"a b\"", root, true},
		{"touch 'a b' c", root, false},
		{"touch 'a b'", filepath.Join(root, "sub"), false},
		{"tar cf b.tar *", root, false},
		{"tar cf b.tar *", root, false},
	} {
		p, err := e.ConfirmRun(context.Background(), tools.RunRequest{Command: call.command, Dir: call.dir})
		if err != nil || !p.Run || (p.Rule != "") != call.auto {
			t.Errorf("%q in %s = %+v, %v; want auto %v", call.command, call.dir, p, err, call.auto)
		}
	}
	if want := []bool{true, true, false, false, false}; !slices.Equal(offered, want) {
		t.Errorf("Always allow offered %v, want %v", offered, want)
	}
}
