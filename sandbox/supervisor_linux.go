package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/agentls/agentls/internal/procstat"
)

// seccompNotif is struct seccomp_notif (linux/seccomp.h): one watched
// system call a process of the command waits in.
type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Nr    int32
	Arch  uint32
	IP    uint64
	Args  [6]uint64
}

// seccompNotifResp is struct seccomp_notif_resp: the supervisor's answer.
type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// maxAncestry bounds the walk from a process up to the reaper.
const maxAncestry = 4096

// supervisor answers the process filter's questions for the command below
// one reaper (processfilter_linux.go): a watched call passes when the
// process it names is a descendant of the reaper.
type supervisor struct {
	reaper int
	calls  map[uint64]procCall // by arch<<32 | nr
	// writable are the command's write grants: where it may change a
	// file's mode or owner (chmod_linux.go).
	writable []grant
}

// newSupervisor is the supervisor of the processes below the reaper, this
// process, for a command confined as sp says.
func newSupervisor(sp spec) *supervisor {
	s := &supervisor{reaper: os.Getpid(), calls: map[uint64]procCall{}, writable: writeGrants(sp)}
	for _, abi := range procABIs[runtime.GOARCH] {
		for nr, c := range abi.calls {
			s.calls[uint64(abi.arch)<<32|uint64(nr)] = c
		}
	}
	return s
}

// receiveListener reads the listener the launcher sends over sock
// (watchProcessCalls) and closes sock; it returns -1 when the launcher
// ended without sending one (it failed, or a listener above it already
// watches).
func receiveListener(sock int) int {
	defer unix.Close(sock)
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	for {
		_, oobn, _, _, err := unix.Recvmsg(sock, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || oobn == 0 {
			return -1
		}
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil || len(msgs) != 1 {
			return -1
		}
		fds, err := unix.ParseUnixRights(&msgs[0])
		if err != nil || len(fds) != 1 {
			return -1
		}
		return fds[0]
	}
}

// serve answers every question on listener until it fails (the process
// exits meanwhile: the reaper's goroutine ends with it); then it closes
// listener, so that a watched call fails (ENOSYS) rather than waits.
func (s *supervisor) serve(listener int) {
	defer unix.Close(listener)
	for {
		var n seccompNotif
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&n))); errno != 0 {
			if errno == unix.EINTR || errno == unix.ENOENT { // ENOENT: the caller died meanwhile
				continue
			}
			fmt.Fprintf(os.Stderr, "%v: process filter: %v\n", ErrLauncher, errno)
			return
		}
		resp := seccompNotifResp{ID: n.ID}
		call := s.calls[uint64(n.Arch)<<32|uint64(uint32(n.Nr))]
		if _, ok := fileCalls[call]; ok {
			resp.Error = -int32(s.changeFile(listener, &n, call)) // made here, never let through
		} else if errno := s.decide(call, n.Args); errno != 0 {
			resp.Error = -int32(errno)
		} else {
			resp.Flags = unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
		}
		// ENOENT: the caller died (or its call was interrupted) meanwhile.
		_, _, _ = unix.Syscall(unix.SYS_IOCTL, uintptr(listener), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
	}
}

// decide is the answer to call with args: 0 lets it through (the kernel
// then makes it, with its own checks), an errno refuses it. Arguments
// are read as the kernel reads a pid_t or int: their low 32 bits.
func (s *supervisor) decide(call procCall, args [6]uint64) unix.Errno {
	arg := func(i int) int32 { return int32(uint32(args[i])) }
	switch call {
	case killCall:
		return s.pidOrGroup(arg(0))
	case taskCall:
		return s.process(arg(0))
	case tgkillCall:
		return s.process(arg(1))
	case setpriorityCall, ioprioCall:
		which, who := uint32(arg(0)), arg(1)
		process, group := uint32(unix.PRIO_PROCESS), uint32(unix.PRIO_PGRP)
		if call == ioprioCall {
			process, group = 1, 2 // IOPRIO_WHO_PROCESS, IOPRIO_WHO_PGRP
		}
		switch {
		case who == 0 && which != whoUser[call]:
			return 0
		case which == process:
			return s.process(who)
		case which == group:
			return s.group(int64(who))
		}
		return unix.EPERM // every process of a user
	case shmatCall:
		return s.segment(arg(0))
	case shmctlCall:
		switch arg(1) &^ ipc64 {
		case unix.IPC_STAT, ipcInfo, shmStat, shmInfo, shmStatAny: // what it is, not what it holds
			return 0
		}
		return s.segment(arg(0))
	case fcntlCall: // F_SETOWN (the filter refuses F_SETOWN_EX)
		if owner := arg(2); owner != 0 {
			return s.pidOrGroup(owner)
		}
		return 0
	}
	return unix.EPERM
}

// shmctl's commands the supervisor lets through for any segment (they
// read its size, owner and times), and the flag some libcs add to them.
const (
	ipcInfo    = 3
	shmStat    = 13
	shmInfo    = 14
	shmStatAny = 15
	ipc64      = 0x100
)

// segment lets a call reach the System V shared memory segment shmid when
// the process that created it is a descendant of the reaper (while that
// process lives: a segment whose creator is gone is refused).
func (s *supervisor) segment(shmid int32) unix.Errno {
	var ds unix.SysvShmDesc
	if _, err := unix.SysvShmCtl(int(shmid), unix.IPC_STAT, &ds); err != nil {
		if errno, ok := err.(unix.Errno); ok && errno != unix.EACCES {
			return errno // EINVAL: no such segment, as the call would say
		}
		return unix.EPERM
	}
	// shm_cpid may name a pid used again since (a command can fork until
	// it holds the pid of a gone creator): a process that started after
	// the segment was made is not its maker.
	maker, err := procstat.Read(int(ds.Cpid))
	if err != nil || !couldMake(maker.Start, int64(ds.Ctime)) {
		return unix.EPERM
	}
	if ours, err := s.descends(int(ds.Cpid)); err != nil || !ours {
		return unix.EPERM
	}
	return 0
}

// pidOrGroup is kill's and F_SETOWN's target: pid > 0 a process, -1
// every process (refused), below that a process group.
func (s *supervisor) pidOrGroup(pid int32) unix.Errno {
	switch {
	case pid > 0:
		return s.process(pid)
	case pid == 0:
		return 0 // the caller's own group
	case pid == -1:
		return unix.EPERM
	}
	return s.group(-int64(pid))
}

// process lets a call reach pid (a process or thread) when it is a
// descendant of the reaper.
func (s *supervisor) process(pid int32) unix.Errno {
	if pid <= 0 {
		return unix.ESRCH
	}
	ours, err := s.descends(int(pid))
	switch {
	case err != nil:
		return unix.ESRCH
	case !ours:
		return unix.EPERM
	}
	return 0
}

// group lets a call reach process group pgid when every member is a
// descendant of the reaper.
func (s *supervisor) group(pgid int64) unix.Errno {
	if pgid <= 0 || pgid > 1<<31-1 {
		return unix.ESRCH
	}
	members := 0
	for _, pid := range procstat.PIDs() {
		st, err := procstat.Read(pid)
		if err != nil || int64(st.PGRP) != pgid {
			continue
		}
		members++
		if ours, err := s.descends(pid); err == nil && !ours {
			return unix.EPERM
		}
	}
	if members == 0 {
		return unix.ESRCH
	}
	return 0
}

// descends reports whether pid's ancestry reaches the reaper (the reaper
// itself does not descend from itself); an error when pid is gone.
func (s *supervisor) descends(pid int) (bool, error) {
	for range maxAncestry {
		st, err := procstat.Read(pid)
		if err != nil {
			return false, err
		}
		switch {
		case st.PPID == s.reaper:
			return true, nil
		case st.PPID <= 1:
			return false, nil
		}
		pid = st.PPID
	}
	return false, nil
}

// couldMake reports whether a process that started start ticks after boot
// can have made a segment whose shm_ctime is ctime (seconds since the
// epoch; a second's slack for the rounding of both).
func couldMake(start uint64, ctime int64) bool {
	boot := procstat.BootTime()
	return boot > 0 && boot+int64(start/procstat.UserHZ) <= ctime+1
}
