package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

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
	case "socketpair":
		var fds [2]int
		if fds, err = syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0); err == nil {
			syscall.Close(fds[0])
			syscall.Close(fds[1])
		}
	case "syscall":
		// syscall NR [ARG0]: a raw system call, its errno as the error.
		nr, _ := strconv.ParseUint(arg, 0, 64)
		var a0 uint64
		if len(args) > 2 {
			a0, _ = strconv.ParseUint(args[2], 0, 64)
		}
		r, _, errno := syscall.RawSyscall(uintptr(nr), uintptr(a0), syscall.SOCK_STREAM, 0)
		if errno != 0 {
			err = errno
		} else if int(r) >= 0 {
			syscall.Close(int(r))
		}
	case "loopback":
		var l net.Listener
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err == nil {
			var c net.Conn
			if c, err = net.Dial("tcp", l.Addr().String()); err == nil {
				c.Close()
			}
			l.Close()
		}
	case "kill":
		pid, _ := strconv.Atoi(arg)
		err = syscall.Kill(pid, syscall.SIGKILL)
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
