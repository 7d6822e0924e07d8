package sandbox

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStartAgainWhenACoveredSocketWentAway: a socket bubblewrap is to
// cover that goes away, or whose folder does, between Prepare and the
// start (a test's temporary folder, an editor's IPC socket) stopped
// bubblewrap before anything ran ("Can't mkdir parents for …"); the
// command starts once more with the sockets listed anew, and its output
// is its own. A command whose output is not a file cannot be started
// again: Start says to prepare it again (ErrPrepareAgain), and why.
func TestStartAgainWhenACoveredSocketWentAway(t *testing.T) {
	if st := Detect().Status(ModeBwrap); !st.Confines() {
		t.Skipf("no bubblewrap here: %s", st.Summary)
	}
	for _, tc := range []struct {
		name       string
		removeDir  bool // the socket's folder goes too
		fileOutput bool
		wantErr    string
	}{
		{"socket's folder removed", true, true, ""},
		{"socket removed", false, true, ""},
		{"output not a file", true, false, "Can't mkdir parents for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "daemon")
			must(t, os.Mkdir(dir, 0o700))
			sock := filepath.Join(dir, "daemon.sock")
			l, err := net.Listen("unix", sock)
			must(t, err)
			defer l.Close()
			cmd, p, err := WatchedCommand(Policy{Mode: ModeBwrap}, "", []string{"/bin/sh", "-c", "echo ran; echo to-stderr >&2"}, os.Environ())
			must(t, err)
			defer p.Cleanup()
			real, err := filepath.EvalSymlinks(sock)
			must(t, err)
			if !slices.Contains(p.bwrap.sockets, real) {
				t.Skipf("%s is not among the covered sockets %q (no %s here?)", real, p.bwrap.sockets, unixTable)
			}
			must(t, l.Close()) // removes the socket
			if tc.removeDir {
				must(t, os.RemoveAll(dir))
			}
			r, w, err := os.Pipe()
			must(t, err)
			defer r.Close()
			var out strings.Builder
			if tc.fileOutput {
				cmd.Stdout, cmd.Stderr = w, w
			} else {
				cmd.Stdout, cmd.Stderr = &out, w
			}
			err = p.Start(cmd)
			w.Close()
			if tc.wantErr != "" {
				if !errors.Is(err, ErrPrepareAgain) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), real) {
					_ = cmd.Wait()
					t.Fatalf("Start = %v, want an error naming %q and %s", err, tc.wantErr, real)
				}
				if b, _ := io.ReadAll(r); len(b) > 0 || out.Len() > 0 {
					t.Errorf("the command's output got %q %q; bubblewrap's message belongs to Start's error", b, out.String())
				}
				return
			}
			must(t, err)
			b, err := io.ReadAll(r)
			must(t, err)
			must(t, cmd.Wait())
			if got := string(b); got != "ran\nto-stderr\n" {
				t.Errorf("output %q, want the command's own %q", got, "ran\nto-stderr\n")
			}
			if slices.Contains(p.bwrap.sockets, real) {
				t.Errorf("the command line still covers %s", real)
			}
		})
	}
}

// TestStartSaysWhyBubblewrapFailed: when bubblewrap cannot set the
// sandbox up on the second try either, Start returns its message and the
// command's output holds nothing.
func TestStartSaysWhyBubblewrapFailed(t *testing.T) {
	if st := Detect().Status(ModeBwrap); !st.Confines() {
		t.Skipf("no bubblewrap here: %s", st.Summary)
	}
	cmd, p, err := WatchedCommand(Policy{Mode: ModeBwrap}, "", []string{"/bin/sh", "-c", "echo ran"}, os.Environ())
	must(t, err)
	defer p.Cleanup()
	gone := filepath.Join(t.TempDir(), "gone", "x.sock")
	listed := p.bwrap.cover
	p.bwrap.cover = func() ([]string, []string) { // always a socket that is not there
		args, sockets := listed()
		end := slices.Index(args, "--proc")
		return slices.Insert(args, end, "--ro-bind", "/dev/null", gone), append(sockets, gone)
	}
	p.remake(cmd)
	r, w, err := os.Pipe()
	must(t, err)
	defer r.Close()
	cmd.Stdout, cmd.Stderr = w, w
	err = p.Start(cmd)
	w.Close()
	if err == nil {
		_ = cmd.Wait()
		t.Fatal("Start succeeded with a mount point bubblewrap cannot make")
	}
	for _, want := range []string{"nothing ran", "Can't mkdir parents for " + gone} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start = %v, want it to say %q", err, want)
		}
	}
	if b, _ := io.ReadAll(r); len(b) > 0 {
		t.Errorf("the command's output got %q", b)
	}
}

// TestCoverFailed: a client-started command is taken as never run only
// when it ended with status 1 and its whole output is bubblewrap's line
// about a covered socket that is gone; a command printing that line while
// the socket is there, more output, another status, or a socket not
// covered is the command's own result.
func TestCoverFailed(t *testing.T) {
	dir := t.TempDir()
	present := filepath.Join(dir, "present.sock")
	l, err := net.Listen("unix", present)
	must(t, err)
	defer l.Close()
	gone := filepath.Join(dir, "gone", "x.sock")
	other := filepath.Join(dir, "other.sock")
	p := &Prepared{bwrap: &bwrapStart{sockets: []string{present, gone}}}
	for _, tc := range []struct {
		name   string
		code   int
		output string
		want   bool
	}{
		{"gone folder", 1, "bwrap: Can't mkdir parents for " + gone + ": Read-only file system\n", true},
		{"gone socket", 1, "bwrap: Can't create file at " + gone + ": Read-only file system\n", true},
		{"a terminal's line end", 1, "bwrap: Can't mkdir parents for " + gone + ": Read-only file system\r\n", true},
		{"socket still there", 1, "bwrap: Can't mkdir parents for " + present + ": Read-only file system\n", false},
		{"not covered", 1, "bwrap: Can't mkdir parents for " + other + ": Read-only file system\n", false},
		{"more output", 1, "ran\nbwrap: Can't mkdir parents for " + gone + ": Read-only file system\n", false},
		{"line then more", 1, "bwrap: Can't mkdir parents for " + gone + ": Read-only file system\nran\n", false},
		{"another status", 0, "bwrap: Can't mkdir parents for " + gone + ": Read-only file system\n", false},
		{"a longer path", 1, "bwrap: Can't mkdir parents for " + gone + "x: Read-only file system\n", false},
		{"another message", 1, "bwrap: execvp agentls: No such file or directory\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.CoverFailed(tc.code, tc.output); got != tc.want {
				t.Errorf("CoverFailed(%d, %q) = %v, want %v", tc.code, tc.output, got, tc.want)
			}
		})
	}
	if (*Prepared)(nil).CoverFailed(1, "bwrap: Can't mkdir parents for "+gone+": x") || (&Prepared{}).CoverFailed(1, "bwrap: Can't mkdir parents for "+gone+": x") {
		t.Error("a command prepared without bubblewrap was taken as never run")
	}
}

// FuzzCoverFailed: whatever a command prints, with whatever status, it is
// taken as never run only when that is one line naming a covered socket
// that is gone.
func FuzzCoverFailed(f *testing.F) {
	dir := f.TempDir()
	present := filepath.Join(dir, "present.sock")
	l, err := net.Listen("unix", present)
	if err != nil {
		f.Fatal(err)
	}
	defer l.Close()
	gone := filepath.Join(dir, "gone", "x.sock")
	p := &Prepared{bwrap: &bwrapStart{sockets: []string{present, gone}}}
	f.Add(1, "bwrap: Can't mkdir parents for "+gone+": Read-only file system\n")
	f.Add(1, "bwrap: Can't create file at "+present+": Read-only file system\n")
	f.Add(0, "ran\n")
	f.Fuzz(func(t *testing.T, code int, output string) {
		if !p.CoverFailed(code, output) {
			return
		}
		line := strings.TrimRight(output, "\r\n")
		if code != 1 || strings.Contains(line, "\n") || !strings.Contains(line, gone+": ") || strings.Contains(line, present) && !strings.Contains(line, gone) {
			t.Fatalf("CoverFailed(%d, %q): taken as never run", code, output)
		}
	})
}
