package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestChmodUnderLandlockAlone: Landlock has no right for a file's mode, so
// under Landlock alone a command changed the mode of any file of its
// user (`chmod o+r ~/.ssh/id_ed25519`); the supervisor now makes each
// chmod, fchmod, fchmodat and fchmodat2 where the command may write and
// refuses it elsewhere, also through a link in the workspace, a
// descriptor opened for reading, /proc/self/fd, or a read-only path
// inside the workspace.
func TestChmodUnderLandlockAlone(t *testing.T) {
	if st := Detect().Status(ModeLandlock); !st.supervised() {
		t.Skipf("needs Landlock without bubblewrap's mode: %s", st.Summary)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	outside := filepath.Join(dir, "outside.txt")
	in := filepath.Join(ws, "in.txt")
	ro := filepath.Join(ws, ".git", "config")
	must(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	must(t, os.MkdirAll(filepath.Dir(ro), 0o755))
	must(t, os.Symlink(outside, filepath.Join(ws, "link")))
	py := func(code string) string { return "python3 -c '" + code + "'" }
	// fchmodat2 makes the system call with path, mode and flags: from the
	// working folder, or, given a file, from a descriptor of it.
	fchmodat2 := func(path string, mode int, flags string, file ...string) string {
		dir := "-100" // AT_FDCWD
		if len(file) > 0 {
			dir = "os.open(" + file[0] + ", os.O_RDONLY)"
		}
		return py(`import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); r = libc.syscall(452, ` + dir + `, ` + path + `, ` + fmt.Sprintf("0o%o", mode) + `, ` + flags + `); e = ctypes.get_errno(); print(r, os.strerror(e)); exit(1 if r else 0)`)
	}
	for _, tc := range []struct {
		name, command, file string
		want                os.FileMode // the file's mode after (0o600 before)
	}{
		{"inside", "chmod 640 in.txt", in, 0o640},
		{"relative, from a subfolder", "cd sub && chmod 604 ../in.txt", in, 0o604},
		{"outside", "chmod 644 " + outside, outside, 0o600},
		{"outside through a link inside", "chmod 644 link", outside, 0o600},
		{"a read-only path inside", "chmod 644 .git/config", ro, 0o600},
		{"fchmod inside", py(`import os; os.fchmod(os.open("in.txt", os.O_RDONLY), 0o620)`), in, 0o620},
		{"fchmod outside, opened for reading", py(`import os; os.fchmod(os.open("` + outside + `", os.O_RDONLY), 0o644)`), outside, 0o600},
		{"/proc/self/fd inside", py(`import os; fd = os.open("in.txt", os.O_RDONLY); os.chmod("/proc/self/fd/%d" % fd, 0o602)`), in, 0o602},
		{"/proc/self/fd outside", py(`import os; fd = os.open("` + outside + `", os.O_RDONLY); os.chmod("/proc/self/fd/%d" % fd, 0o644)`), outside, 0o600},
		{"fchmodat from a folder descriptor", py(`import os; d = os.open("sub", os.O_RDONLY); os.chmod("../in.txt", 0o660, dir_fd=d)`), in, 0o660},
		// Another thread rewrites the path between "in.txt" and the file
		// outside while chmod runs: the supervisor acts on what it read.
		{"a path rewritten meanwhile", py(`import ctypes, threading
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(4096)
inside, out = b"in.txt\0", b"` + outside + `\0"
done = []
def flip():
    while not done:
        ctypes.memmove(buf, out, len(out)); ctypes.memmove(buf, inside, len(inside))
t = threading.Thread(target=flip); t.start()
refused = sum(1 for i in range(3000) if libc.chmod(buf, 0o644) and ctypes.get_errno() == 1)
done.append(1); t.join(); print(refused, "refused: Operation not permitted"); exit(1)`), outside, 0o600},
		// fchmodat2 itself (Python and glibc reach it only through their own fallbacks).
		{"fchmodat2, a link not followed", fchmodat2(`b"link"`, 0o644, "0x100"), outside, 0o600},
		{"fchmodat2, a descriptor outside", fchmodat2(`b""`, 0o644, "0x1000", `"`+outside+`"`), outside, 0o600},
		{"fchmodat2, a descriptor inside", fchmodat2(`b""`, 0o606, "0x1000", `"in.txt"`), in, 0o606},
		{"fchmodat2, unknown flags", fchmodat2(`b"in.txt"`, 0o644, "0x4"), in, 0o600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []string{in, outside, ro} {
				must(t, os.WriteFile(f, []byte("x\n"), 0o600))
				must(t, os.Chmod(f, 0o600))
			}
			cmd, p, err := Command(Policy{Mode: ModeLandlock, Writable: []string{ws}, ReadOnly: []string{filepath.Join(ws, ".git")}}, "", []string{"/bin/sh", "-c", tc.command}, os.Environ())
			must(t, err)
			defer p.Cleanup()
			cmd.Dir = ws
			out, err := cmd.CombinedOutput()
			fi, statErr := os.Stat(tc.file)
			must(t, statErr)
			if got := fi.Mode().Perm(); got != tc.want {
				t.Fatalf("%s: mode %o, want %o (exit %v: %s)", tc.file, got, tc.want, err, out)
			}
			changed := tc.want != 0o600
			if changed && err != nil {
				t.Errorf("the change was made but the command failed: %v: %s", err, out)
			}
			if !changed && (err == nil || !strings.Contains(strings.ToLower(string(out)), "not permitted") && !strings.Contains(string(out), "not supported") && !strings.Contains(string(out), "Invalid argument")) {
				t.Errorf("the refused change did not fail as refused (exit %v): %s", err, out)
			}
		})
	}
	// A file removed inside (an O_TMPFILE, a temporary file unlinked while
	// open) is named by the path it had: its mode may be changed.
	t.Run("fchmod of a file removed inside", func(t *testing.T) {
		cmd, p, err := Command(Policy{Mode: ModeLandlock, Writable: []string{ws}}, "", []string{"/bin/sh", "-c", py(`import os; fd = os.open("gone.txt", os.O_RDWR | os.O_CREAT, 0o600); os.unlink("gone.txt"); os.fchmod(fd, 0o640); exit(0 if os.fstat(fd).st_mode & 0o777 == 0o640 else 1)`)}, os.Environ())
		must(t, err)
		defer p.Cleanup()
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%v: %s", err, out)
		}
	})
}

// FuzzChmodTarget: however a command spells the path of a chmod (.., //,
// links, /proc/self/…, /proc/thread-self/…, a folder descriptor), the
// supervisor lets it change only a file inside the writable folder and
// outside its read-only path.
func FuzzChmodTarget(f *testing.F) {
	dir := f.TempDir()
	ws := filepath.Join(dir, "ws")
	for _, d := range []string{filepath.Join(ws, "sub"), filepath.Join(ws, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(ws, "in.txt"), filepath.Join(ws, ".git", "config"), filepath.Join(dir, "outside.txt")} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "outside.txt"), filepath.Join(ws, "link")); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(ws, "sub", "up")); err != nil {
		f.Fatal(err)
	}
	sub, err := os.Open(filepath.Join(ws, "sub"))
	if err != nil {
		f.Fatal(err)
	}
	defer sub.Close()
	s := &supervisor{writable: writeGrants(spec{Writable: []string{ws}, ReadOnly: []string{filepath.Join(ws, ".git")}})}
	for _, p := range []string{"../in.txt", "up/up/outside.txt", "../link", "/proc/self/fd/" + fmt.Sprint(sub.Fd()) + "/../in.txt", "/proc/thread-self/cwd", "../.git/config", "", "//" + ws + "/./in.txt"} {
		f.Add(p, uint8(0))
	}
	f.Fuzz(func(t *testing.T, path string, flags uint8) {
		if strings.IndexByte(path, 0) >= 0 {
			return // the kernel reads a path up to its NUL
		}
		fl := 0
		if flags&1 != 0 {
			fl |= atSymlinkNofollow
		}
		if flags&2 != 0 {
			fl |= atEmptyPath
		}
		fd, errno := openTarget(os.Getpid(), int(sub.Fd()), path, fl, flags&4 != 0)
		if errno != 0 {
			return
		}
		defer unix.Close(fd)
		real := realPath(fd)
		if !s.mayChange(real) {
			return
		}
		if !within(real, ws) || within(real, filepath.Join(ws, ".git")) {
			t.Fatalf("%q (flags %d) opened %s, and its mode may be changed", path, fl, real)
		}
	})
}

// TestInodeFlagsUnderLandlockAlone: a file's owner may change its inode
// flags on a descriptor opened for reading (chattr +d: left out of
// backups), and Landlock's ioctl right covers devices only: under Landlock
// alone a command changed them outside the workspace. The process filter
// refuses those ioctls.
func TestInodeFlagsUnderLandlockAlone(t *testing.T) {
	if st := Detect().Status(ModeLandlock); !st.supervised() {
		t.Skipf("needs Landlock without bubblewrap's mode: %s", st.Summary)
	}
	outside := filepath.Join(t.TempDir(), "outside.txt")
	must(t, os.WriteFile(outside, nil, 0o600))
	if out, err := exec.Command("chattr", "+d", outside).CombinedOutput(); err != nil {
		t.Skipf("no chattr here, or no inode flags on %s: %v %s", outside, err, out)
	}
	must(t, exec.Command("chattr", "-d", outside).Run())
	cmd, p, err := Command(Policy{Mode: ModeLandlock, Writable: []string{t.TempDir()}}, "", []string{"chattr", "+d", outside}, os.Environ())
	must(t, err)
	defer p.Cleanup()
	out, err := cmd.CombinedOutput()
	flags, _ := exec.Command("lsattr", "-d", outside).Output()
	if err == nil || strings.Contains(strings.Fields(string(flags) + " -")[0], "d") {
		t.Errorf("chattr +d outside the workspace: exit %v (%s), flags now %s", err, out, flags)
	}
}

// TestChownUnderLandlockAlone: Landlock has no right for a file's owner
// either: under Landlock alone a command gave the user's files outside
// another group of the user's (chgrp: readable to that group) or, as root,
// another owner. The supervisor makes each chown where the command may
// write and refuses it elsewhere, a no-op one too.
func TestChownUnderLandlockAlone(t *testing.T) {
	if st := Detect().Status(ModeLandlock); !st.supervised() {
		t.Skipf("needs Landlock without bubblewrap's mode: %s", st.Summary)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	owner := os.Getuid() // a no-op chown: refused outside all the same
	if owner == 0 {
		owner = 1234
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	outside := filepath.Join(dir, "outside.txt")
	in := filepath.Join(ws, "in.txt")
	link := filepath.Join(ws, "link")
	must(t, os.Mkdir(ws, 0o755))
	must(t, os.Symlink(outside, link))
	o := fmt.Sprint(owner)
	for _, tc := range []struct {
		name, command, file string
		changes             bool
	}{
		{"inside", "chown " + o + " in.txt", in, true},
		{"outside", "chown " + o + " " + outside, outside, false},
		{"outside through a link inside", "chown " + o + " link", outside, false},
		{"a link inside itself", "chown -h " + o + " link", link, true},
		{"fchown outside, opened for reading", `python3 -c 'import os; os.fchown(os.open("` + outside + `", os.O_RDONLY), ` + o + `, -1)'`, outside, false},
		{"fchownat inside", `python3 -c 'import os; os.chown("in.txt", ` + o + `, -1, follow_symlinks=False)'`, in, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []string{in, outside} {
				must(t, os.WriteFile(f, []byte("x\n"), 0o600))
				must(t, os.Lchown(f, os.Getuid(), -1))
			}
			must(t, os.Lchown(link, os.Getuid(), -1))
			cmd, p, err := Command(Policy{Mode: ModeLandlock, Writable: []string{ws}}, "", []string{"/bin/sh", "-c", tc.command}, os.Environ())
			must(t, err)
			defer p.Cleanup()
			cmd.Dir = ws
			out, err := cmd.CombinedOutput()
			if tc.changes != (err == nil) {
				t.Fatalf("exit %v, want the change made: %v (%s)", err, tc.changes, out)
			}
			if !tc.changes && !strings.Contains(strings.ToLower(string(out)), "not permitted") {
				t.Errorf("refused, but not as refused: %s", out)
			}
			fi, err := os.Lstat(tc.file)
			must(t, err)
			got := int(fi.Sys().(*syscall.Stat_t).Uid)
			if want := map[bool]int{true: owner, false: os.Getuid()}[tc.changes]; got != want {
				t.Errorf("%s: owner %d, want %d", tc.file, got, want)
			}
		})
	}
}
