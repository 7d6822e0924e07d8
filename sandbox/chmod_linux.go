package sandbox

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock has no right for a file's mode or owner (up to ABI 7): under
// Landlock alone a command could chmod any file of its user it can name,
// outside the workspace, in .agentls/ or a denied folder (`chmod o+r
// ~/.ssh/id_ed25519`, `chmod 000 ~/thesis.tex`), or give it another of the
// user's groups (`chgrp users ~/notes`, readable to that group), and a
// seccomp filter cannot see a path. So the process filter hands the chmod
// and chown calls to the reaper (processfilter_linux.go), which makes each
// itself where the command may write (its Landlock write grants) and
// refuses it with EPERM elsewhere. It opens the file once (O_PATH, from
// the command's working folder or descriptor), checks the real path of
// what it opened and changes the file through that descriptor: a path the
// command rewrites in its memory after the read, or a link it swaps, can
// change no other file (a check followed by letting the call through would
// allow both). Builds that set modes in the workspace (npm's bins, tar -x,
// git checkout) work as before.

// The AT_* flags fchmodat2 and fchownat take.
const (
	atSymlinkNofollow = unix.AT_SYMLINK_NOFOLLOW
	atEmptyPath       = unix.AT_EMPTY_PATH
)

// writeGrants are the grants of s that let the command write: folders
// below which, and files which, it may change.
func writeGrants(s spec) []grant {
	return slices.DeleteFunc(s.grants(), func(g grant) bool { return g.kind != writeTree && g.kind != writeFile })
}

// mayChange reports whether the command may change the mode or owner of the
// file whose real path is p.
func (s *supervisor) mayChange(p string) bool {
	return slices.ContainsFunc(s.writable, func(g grant) bool {
		return g.kind == writeTree && within(p, g.path) || g.kind == writeFile && p == g.path
	})
}

// fileCall is where a watched call that changes a file's metadata names
// the file, and the change, by the indexes of its arguments (-1: none).
type fileCall struct {
	dir, path, flags int  // the folder descriptor, the path, fchmodat2's and fchownat's flags
	value            int  // the mode, or the owner (the group follows it)
	fd               bool // dir is the file itself (fchmod, fchown)
	nofollow         bool // a link is not followed (lchown)
	owner            bool // a chown: value is the owner
}

// fileCalls are the watched calls that change a file's mode or owner.
var fileCalls = map[procCall]fileCall{
	chmodCall:     {dir: -1, path: 0, flags: -1, value: 1},
	fchmodCall:    {dir: 0, path: -1, flags: -1, value: 1, fd: true},
	fchmodatCall:  {dir: 0, path: 1, flags: -1, value: 2},
	fchmodat2Call: {dir: 0, path: 1, flags: 3, value: 2},
	chownCall:     {dir: -1, path: 0, flags: -1, value: 1, owner: true},
	lchownCall:    {dir: -1, path: 0, flags: -1, value: 1, nofollow: true, owner: true},
	fchownCall:    {dir: 0, path: -1, flags: -1, value: 1, fd: true, owner: true},
	fchownatCall:  {dir: 0, path: 1, flags: 4, value: 2, owner: true},
}

// changeFile makes the call n (of kind call: a chmod or a chown) for the
// command where it may write; it returns the call's errno (0: done).
func (s *supervisor) changeFile(listener int, n *seccompNotif, call procCall) unix.Errno {
	fc, ok := fileCalls[call]
	if !ok {
		return unix.EPERM
	}
	pid := int(n.Pid)
	arg := func(i int) int { return int(int32(uint32(n.Args[i]))) }
	dir, flags := unix.AT_FDCWD, 0
	if fc.dir >= 0 {
		dir = arg(fc.dir)
	}
	if fc.fd {
		flags |= atEmptyPath
	}
	if fc.nofollow {
		flags |= atSymlinkNofollow
	}
	if fc.flags >= 0 {
		flags = arg(fc.flags)
		if flags&^(atSymlinkNofollow|atEmptyPath) != 0 {
			return unix.EINVAL
		}
	}
	var path string
	if fc.path >= 0 {
		var errno unix.Errno
		if path, errno = readCString(pid, n.Args[fc.path]); errno != 0 {
			return errno
		}
	}
	fd, errno := openTarget(pid, dir, path, flags, fc.owner)
	if errno != 0 {
		return errno
	}
	defer unix.Close(fd)
	if !s.mayChange(realPath(fd)) {
		return unix.EPERM
	}
	if !notifValid(listener, n.ID) { // the caller is gone: its pid may name another process now
		return unix.ENOENT
	}
	if fc.owner { // the file itself (a link, with lchown), opened above
		return errnoOf(unix.Fchownat(fd, "", arg(fc.value), arg(fc.value+1), unix.AT_EMPTY_PATH))
	}
	return errnoOf(unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), uint32(n.Args[fc.value])&07777))
}

// realPath is the real path of the file open as fd ("" when unknown). A
// file no longer linked anywhere (an O_TMPFILE, one removed meanwhile) is
// named by the path it had and " (deleted)": inside a folder when it was
// there.
func realPath(fd int) string {
	buf := make([]byte, unix.PathMax)
	size, err := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf)
	if err != nil {
		return ""
	}
	return string(buf[:size])
}

// openTarget opens (O_PATH) the file a chmod or chown of process pid
// names: path from folder descriptor dir (AT_FDCWD: its working folder),
// or with AT_EMPTY_PATH and no path, dir itself; with AT_SYMLINK_NOFOLLOW
// a link is not followed (a chown changes the link's owner; a link's mode
// cannot be changed: EOPNOTSUPP, as the kernel answers). "/proc/self" and
// "/proc/thread-self" name the caller's.
func openTarget(pid, dir int, path string, flags int, owner bool) (int, unix.Errno) {
	proc := "/proc/" + strconv.Itoa(pid)
	dirPath := proc + "/cwd"
	if dir != unix.AT_FDCWD {
		if dir < 0 {
			return -1, unix.EBADF
		}
		dirPath = proc + "/fd/" + strconv.Itoa(dir)
	}
	if path == "" {
		if flags&atEmptyPath == 0 {
			return -1, unix.ENOENT
		}
		fd, err := unix.Open(dirPath, unix.O_PATH|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) && dir != unix.AT_FDCWD {
			return -1, unix.EBADF
		}
		return fd, errnoOf(err)
	}
	for _, self := range []struct{ name, is string }{{"/proc/self", proc}, {"/proc/thread-self", proc + "/task/" + strconv.Itoa(pid)}} {
		if rest, ok := strings.CutPrefix(path, self.name); ok && (rest == "" || rest[0] == '/') {
			path = self.is + rest
		}
	}
	base := -1
	if !filepath.IsAbs(path) {
		b, err := unix.Open(dirPath, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			if errors.Is(err, unix.ENOENT) && dir != unix.AT_FDCWD {
				return -1, unix.EBADF
			}
			return -1, errnoOf(err)
		}
		defer unix.Close(b)
		base = b
	}
	how := unix.O_PATH | unix.O_CLOEXEC
	if flags&atSymlinkNofollow != 0 {
		how |= unix.O_NOFOLLOW
	}
	if base < 0 {
		base = unix.AT_FDCWD
	}
	fd, err := unix.Openat(base, path, how, 0)
	if err != nil {
		return -1, errnoOf(err)
	}
	if flags&atSymlinkNofollow != 0 && !owner {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			unix.Close(fd)
			return -1, unix.EOPNOTSUPP
		}
	}
	return fd, 0
}

// readCString reads the NUL-terminated string at addr in process pid's
// memory (at most PATH_MAX bytes, as the kernel reads a path).
func readCString(pid int, addr uint64) (string, unix.Errno) {
	const chunk = 256 // a read never crosses a page: a string may end just before an unmapped one
	var out []byte
	buf := make([]byte, chunk)
	for len(out) < unix.PathMax {
		n := chunk - int(addr%chunk)
		local := []unix.Iovec{{Base: &buf[0]}}
		local[0].SetLen(n)
		remote := []unix.RemoteIovec{{Base: uintptr(addr), Len: n}}
		got, err := unix.ProcessVMReadv(pid, local, remote, 0)
		if err != nil || got <= 0 {
			if err != nil && !errors.Is(err, unix.EFAULT) {
				return "", errnoOf(err)
			}
			return "", unix.EFAULT
		}
		if i := bytes.IndexByte(buf[:got], 0); i >= 0 {
			return string(append(out, buf[:i]...)), 0
		}
		out = append(out, buf[:got]...)
		addr += uint64(got)
	}
	return "", unix.ENAMETOOLONG
}

// notifValid reports whether the notification id still waits for its
// answer (its caller has not died meanwhile).
func notifValid(listener int, id uint64) bool {
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_ID_VALID, uintptr(unsafe.Pointer(&id)))
	return errno == 0
}

// errnoOf is err's errno (EPERM when it has none).
func errnoOf(err error) unix.Errno {
	if err == nil {
		return 0
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return unix.EPERM
}
