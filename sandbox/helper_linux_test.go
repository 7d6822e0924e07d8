package sandbox

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// helperOut runs op in this process and returns what it printed (its
// last line) and its exit code.
func helperOut(op ...string) (string, int) {
	r, w, _ := os.Pipe()
	stdout := os.Stdout
	os.Stdout = w
	code := helper(op)
	os.Stdout = stdout
	w.Close()
	b, _ := io.ReadAll(r)
	r.Close()
	return strings.TrimSpace(string(b)), code
}

// reach does op to the process pid (kill-group: its process group) by
// one of the system calls that name another process: each kills it or
// changes it only as far as its own settings already are.
func reach(op string, pid int) error {
	switch op {
	case "kill":
		return unix.Kill(pid, unix.SIGKILL)
	case "kill-group":
		return unix.Kill(-pid, unix.SIGKILL)
	case "tgkill":
		return unix.Tgkill(pid, pid, unix.SIGKILL)
	case "pidfd-kill":
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			return fmt.Errorf("pidfd_open: %w", err)
		}
		defer unix.Close(fd)
		return unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	case "prlimit":
		var lim unix.Rlimit
		if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, nil, &lim); err != nil {
			return fmt.Errorf("read: %w", err)
		}
		return unix.Prlimit(pid, unix.RLIMIT_NOFILE, &lim, nil)
	case "setpriority":
		prio, err := unix.Getpriority(unix.PRIO_PROCESS, pid)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		return unix.Setpriority(unix.PRIO_PROCESS, pid, 20-prio) // the same niceness
	case "setaffinity":
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(pid, &set); err != nil {
			return fmt.Errorf("read: %w", err)
		}
		return unix.SchedSetaffinity(pid, &set)
	case "sigio":
		// SIGKILL at pid when a pipe becomes readable (F_SETOWN, F_SETSIG).
		var p [2]int
		if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
			return err
		}
		defer unix.Close(p[0])
		defer unix.Close(p[1])
		if _, err := unix.FcntlInt(uintptr(p[0]), unix.F_SETOWN, pid); err != nil {
			return fmt.Errorf("F_SETOWN: %w", err)
		}
		if _, err := unix.FcntlInt(uintptr(p[0]), unix.F_SETSIG, int(unix.SIGKILL)); err != nil {
			return fmt.Errorf("F_SETSIG: %w", err)
		}
		if _, err := unix.FcntlInt(uintptr(p[0]), unix.F_SETFL, unix.O_ASYNC|unix.O_NONBLOCK); err != nil {
			return fmt.Errorf("O_ASYNC: %w", err)
		}
		_, err := unix.Write(p[1], []byte("x"))
		return err
	}
	return fmt.Errorf("unknown op %q", op)
}

// commandHere runs the op as a command under pol in ws, started from this
// process (a stand-in for agentls), and prints "command: <its output>
// (<its error>)"; an error only when it could not be prepared.
func commandHere(pol Policy, ws string, op ...string) error {
	self, _ := os.Executable()
	cmd, prep, err := Command(pol, self, append([]string{self, helperArg}, op...), os.Environ())
	if err != nil {
		return err
	}
	cmd.Dir = ws
	out, runErr := cmd.CombinedOutput()
	prep.Cleanup()
	fmt.Printf("command: %s (%v)\n", strings.TrimSpace(string(out)), runErr)
	return nil
}

// helper does one thing and prints "ok" (exit 0) or "err: …" (exit 1).
func helper(args []string) int {
	arg := ""
	if len(args) > 1 {
		arg = args[1]
	}
	var err error
	switch args[0] {
	case "write":
		err = os.WriteFile(arg, []byte("x"), 0o644)
	case "read":
		_, err = os.ReadFile(arg)
	case "open-read":
		// Opens arg for reading without waiting on it (a terminal).
		var f *os.File
		if f, err = os.OpenFile(arg, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0); err == nil {
			f.Close()
		}
	case "read-each":
		// read-each PATH…: "readable: PATH" for each one it could read.
		for _, p := range args[1:] {
			if _, rerr := os.ReadFile(p); rerr == nil {
				fmt.Printf("readable: %s\n", p)
			}
		}
	case "list":
		_, err = os.ReadDir(arg)
	case "rename":
		if len(args) < 3 {
			err = fmt.Errorf("rename needs two paths")
		} else {
			err = os.Rename(arg, args[2])
		}
	case "connect":
		var c net.Conn
		if c, err = net.DialTimeout("tcp", arg, 5*time.Second); err == nil {
			c.Close()
		}
	case "connect-unix":
		var c net.Conn
		if c, err = net.DialTimeout("unix", arg, 5*time.Second); err == nil {
			c.Close()
		}
	case "chmod":
		err = os.Chmod(arg, 0o777)
	case "fchmod":
		var f *os.File
		if f, err = os.Open(arg); err == nil {
			err = f.Chmod(0o777)
			f.Close()
		}
	case "setxattr":
		err = unix.Setxattr(arg, "user.agentls", []byte("x"), 0)
	case "lsetxattr":
		err = unix.Lsetxattr(arg, "user.agentls", []byte("x"), 0)
	case "fsetxattr":
		var f *os.File
		if f, err = os.Open(arg); err == nil {
			err = unix.Fsetxattr(int(f.Fd()), "user.agentls", []byte("x"), 0)
			f.Close()
		}
	case "removexattr":
		err = unix.Removexattr(arg, "user.kept")
	case "socketpair":
		var fds [2]int
		if fds, err = syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0); err == nil {
			syscall.Close(fds[0])
			syscall.Close(fds[1])
		}
	case "syscall":
		// syscall NR [ARG0 [ARG1]]: a raw system call (ARG1: SOCK_STREAM
		// unless given), its errno as the error.
		nr, _ := strconv.ParseUint(arg, 0, 64)
		var a0 uint64
		a1 := uint64(syscall.SOCK_STREAM)
		if len(args) > 2 {
			a0, _ = strconv.ParseUint(args[2], 0, 64)
		}
		if len(args) > 3 {
			a1, _ = strconv.ParseUint(args[3], 0, 64)
		}
		r, _, errno := syscall.RawSyscall(uintptr(nr), uintptr(a0), uintptr(a1), 0)
		if errno != 0 {
			err = errno
		} else if int(r) >= 0 {
			syscall.Close(int(r))
		}
	case "tiocsti":
		// Push a character into the input of the controlling terminal.
		var fd int
		if fd, err = syscall.Open("/dev/tty", syscall.O_RDWR, 0); err == nil {
			c := byte('#')
			if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCSTI, uintptr(unsafe.Pointer(&c))); errno != 0 {
				err = fmt.Errorf("TIOCSTI: %w", errno)
			}
			syscall.Close(fd)
		}
	case "on-tty":
		// on-tty MODE WS UID: in a session whose controlling terminal is
		// fd 0, as agentls started from a terminal editor: TIOCSTI itself
		// (the control), then the op tiocsti as a command under MODE.
		if len(args) < 4 {
			err = fmt.Errorf("on-tty MODE WS UID")
			break
		}
		control, code := helperOut("tiocsti")
		fmt.Printf("control: %s exit %d\n", control, code)
		pol := Policy{Mode: Mode(arg), Writable: []string{args[2]}}
		if args[3] != "" {
			uid, _ := strconv.Atoi(args[3])
			pol.RunAs = &User{UID: uint32(uid), GID: uint32(uid)}
		}
		err = commandHere(pol, args[2], "tiocsti")
	case "loopback":
		var l net.Listener
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err == nil {
			var c net.Conn
			if c, err = net.Dial("tcp", l.Addr().String()); err == nil {
				c.Close()
			}
			l.Close()
		}
	case "kill", "kill-group", "tgkill", "pidfd-kill", "prlimit", "setpriority", "setaffinity", "sigio":
		pid, _ := strconv.Atoi(arg)
		err = reach(args[0], pid)
	case "keyring":
		// keyring NAME: find the key NAME in the keyrings this process
		// possesses (session, user) and read it.
		for _, ring := range []int{unix.KEY_SPEC_SESSION_KEYRING, unix.KEY_SPEC_USER_KEYRING} {
			var id int
			if id, err = unix.KeyctlSearch(ring, "user", arg, 0); err != nil {
				continue
			}
			buf := make([]byte, 256)
			var n int
			if n, err = unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0); err == nil {
				fmt.Printf("read %q\n", buf[:n])
				break
			}
		}
	case "with-key":
		// with-key MODE WS NAME: as agentls runs as its user, with a key
		// NAME in a session keyring of its own and in the user keyring, run
		// the op keyring NAME as a command under MODE.
		if len(args) < 4 {
			err = fmt.Errorf("with-key MODE WS NAME")
			break
		}
		runtime.LockOSThread() // the session keyring is this thread's; the command forks from it
		if _, err = unix.KeyctlJoinSessionKeyring(args[3]); err != nil {
			break
		}
		for _, ring := range []int{unix.KEY_SPEC_SESSION_KEYRING, unix.KEY_SPEC_USER_KEYRING} {
			if _, err = unix.AddKey("user", args[3], []byte("hunter2"), ring); err != nil {
				break
			}
		}
		if control, code := helperOut("keyring", args[3]); code != 0 {
			err = fmt.Errorf("control: %s", control)
			break
		}
		err = commandHere(Policy{Mode: Mode(arg), Writable: []string{args[2]}}, args[2], "keyring", args[3])
		if id, kerr := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", args[3], 0); kerr == nil {
			unix.KeyctlInt(unix.KEYCTL_UNLINK, id, unix.KEY_SPEC_USER_KEYRING, 0, 0)
		}
	case "shm":
		// shm KEY: attach the SysV shared memory segment KEY and read it.
		key, _ := strconv.Atoi(arg)
		var id int
		if id, err = unix.SysvShmGet(key, 0, 0); err != nil {
			err = fmt.Errorf("shmget: %w", err)
			break
		}
		var mem []byte
		if mem, err = unix.SysvShmAttach(id, 0, unix.SHM_RDONLY); err != nil {
			err = fmt.Errorf("shmat: %w", err)
			break
		}
		fmt.Printf("read %q\n", strings.TrimRight(string(mem[:16]), "\x00"))
		unix.SysvShmDetach(mem)
	case "own-shm":
		// A segment of the command's own: made, attached, written, read
		// by a child (another process of the command) and removed.
		if arg == "" {
			var id int
			if id, err = unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600); err != nil {
				err = fmt.Errorf("shmget: %w", err)
				break
			}
			var mem []byte
			if mem, err = unix.SysvShmAttach(id, 0, 0); err == nil {
				copy(mem, "own")
				self, _ := os.Executable()
				var out []byte
				out, err = exec.Command(self, helperArg, "own-shm", strconv.Itoa(id)).CombinedOutput()
				if err != nil || !strings.Contains(string(out), "own") {
					err = fmt.Errorf("the child: %v: %s", err, out)
				}
				unix.SysvShmDetach(mem)
			}
			if _, rmErr := unix.SysvShmCtl(id, unix.IPC_RMID, nil); err == nil && rmErr != nil {
				err = fmt.Errorf("IPC_RMID: %w", rmErr)
			}
			break
		}
		id, _ := strconv.Atoi(arg)
		var mem []byte
		if mem, err = unix.SysvShmAttach(id, 0, unix.SHM_RDONLY); err == nil {
			fmt.Printf("read %q\n", strings.TrimRight(string(mem[:8]), "\x00"))
			unix.SysvShmDetach(mem)
		}
	case "nnp":
		// Fails unless no_new_privs is set (set-id programs get no rights).
		var v int
		if v, err = unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); err == nil && v != 1 {
			err = fmt.Errorf("no_new_privs is %d", v)
		}
	case "own":
		// own OP: OP on a child of this command (the command's own
		// processes stay in its reach).
		self, _ := os.Executable()
		c := exec.Command(self, helperArg, "sleep")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err = c.Start(); err == nil {
			err = reach(arg, c.Process.Pid)
			c.Process.Kill()
			c.Wait()
		}
	case "env":
		for _, k := range []string{"TMPDIR", "GOTMPDIR", "GOCACHE", "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS"} {
			v, ok := os.LookupEnv(k)
			fmt.Printf("%s=%q %v\n", k, v, ok)
		}
		err = os.WriteFile(os.Getenv("TMPDIR")+"/probe", []byte("x"), 0o600)
	case "sleep":
		// The victim and the escaped grandchild: they wait to be killed.
		for {
			time.Sleep(time.Hour)
		}
	case "escape":
		// A grandchild in a session of its own holds fd 3 (the test's pipe)
		// and reports its pid there; this process then exits.
		fd3 := os.NewFile(3, "pipe")
		self, _ := os.Executable()
		c := exec.Command(self, helperArg, "sleep")
		c.ExtraFiles = []*os.File{fd3}
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err = c.Start(); err == nil {
			fmt.Fprintf(fd3, "%d\n", c.Process.Pid)
		}
	default:
		err = fmt.Errorf("unknown op %q", args[0])
	}
	if err != nil {
		fmt.Printf("err: %v\n", err)
		return 1
	}
	fmt.Println("ok")
	return 0
}
