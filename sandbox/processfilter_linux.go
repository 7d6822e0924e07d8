package sandbox

import (
	"fmt"
	"sort"

	"golang.org/x/sys/unix"
)

// Under Landlock alone no PID namespace hides the user's other processes
// (the editor, agentls, the user's shell), and Landlock itself keeps a
// command only from tracing them (every ABI) and, from ABI 6, from
// signalling them. A command could still kill them before ABI 6, and on
// every ABI change their resource limits (prlimit: RLIMIT_CPU kills,
// RLIMIT_NOFILE breaks), priority and CPUs, aim SIGIO (any signal, with
// F_SETSIG) at them, or attach their System V shared memory (X11's
// MIT-SHM segments: the pixels of the user's windows). So there the
// launcher adds a second seccomp filter whose listener it hands to its
// reaper (supervisor_linux.go): the calls below that name another process
// go to the reaper, which lets them through only when the target is one
// of the command's own processes (a descendant of the reaper; a shared
// memory segment, when its creator is) and refuses them with EPERM
// otherwise. A call aimed at the caller itself (pid 0) passes without a
// stop. Targets the reaper cannot check without a race or at all are
// refused outright: pidfd_send_signal fails with ENOSYS (its target is a
// descriptor, which the command could swap under the check; programs fall
// back to kill, as on a kernel before 5.1), F_SETOWN_EX and the FIOSETOWN
// and SIOCSPGRP ioctls with EPERM (their target is behind a pointer), and
// System V semaphores and message queues, POSIX message queues and i386's
// ipc() multiplexer, which name no creator, with ENOSYS (as on a kernel
// without them). And as Landlock has no right for a file's mode or owner,
// the chmod and chown calls go to the reaper too, which makes them itself
// where the command may write (chmod_linux.go; i386's and arm's 16-bit
// chowns, which glibc no longer calls, fail with ENOSYS). docs/guard.md "What each layer gives".

// procCall is a system call the process filter watches.
type procCall int

// The watched calls. The pid they name is their first argument but for
// tgkillCall's (the second: the thread), setpriorityCall's and
// ioprioCall's (the second: who) and fcntlCall's (the third).
const (
	killCall        procCall = iota + 1 // kill(pid, sig): pid < -1 is a process group, -1 all
	taskCall                            // tkill, rt_sigqueueinfo, prlimit64, sched_set*: a pid or tid
	tgkillCall                          // tgkill, rt_tgsigqueueinfo: (tgid, tid, …)
	setpriorityCall                     // setpriority(which, who, prio)
	ioprioCall                          // ioprio_set(which, who, ioprio)
	fcntlCall                           // fcntl, fcntl64: F_SETOWN, F_SETOWN_EX
	ioctlCall                           // ioctl: FIOSETOWN, SIOCSPGRP
	pidfdSignalCall                     // pidfd_send_signal
	shmatCall                           // shmat(shmid, addr, flags)
	shmctlCall                          // shmctl(shmid, cmd, buf)
	ipcCall                             // System V semaphores and messages, POSIX message queues, i386's ipc()
	chmodCall                           // chmod(path, mode): made by the supervisor (chmod_linux.go)
	fchmodCall                          // fchmod(fd, mode): likewise
	fchmodatCall                        // fchmodat(dirfd, path, mode): likewise
	fchmodat2Call                       // fchmodat2(dirfd, path, mode, flags): likewise
	chownCall                           // chown, chown32(path, uid, gid): likewise
	lchownCall                          // lchown, lchown32(path, uid, gid): likewise
	fchownCall                          // fchown, fchown32(fd, uid, gid): likewise
	fchownatCall                        // fchownat(dirfd, path, uid, gid, flags): likewise
	chown16Call                         // i386's and arm's 16-bit chown, lchown, fchown: ENOSYS
)

// procABI is one system call ABI's watched calls, by number.
type procABI struct {
	arch  uint32 // AUDIT_ARCH_*
	calls map[uint32]procCall
}

// The generic table's numbers (arm64, riscv64, loong64), x86-64's, i386's
// and 32-bit arm's.
var (
	genericCalls = map[uint32]procCall{
		129: killCall, 130: taskCall, 131: tgkillCall, 138: taskCall, 240: tgkillCall,
		261: taskCall, 118: taskCall, 119: taskCall, 122: taskCall, 274: taskCall,
		140: setpriorityCall, 30: ioprioCall, 25: fcntlCall, 29: ioctlCall, 424: pidfdSignalCall,
		195: shmctlCall, 196: shmatCall, 180: ipcCall, 181: ipcCall, 182: ipcCall, 183: ipcCall, 184: ipcCall, 185: ipcCall,
		186: ipcCall, 187: ipcCall, 188: ipcCall, 189: ipcCall, 190: ipcCall, 191: ipcCall, 192: ipcCall, 193: ipcCall,
		52: fchmodCall, 53: fchmodatCall, 452: fchmodat2Call, 54: fchownatCall, 55: fchownCall,
	}
	x86_64Calls = map[uint32]procCall{
		62: killCall, 200: taskCall, 234: tgkillCall, 129: taskCall, 297: tgkillCall,
		302: taskCall, 142: taskCall, 144: taskCall, 203: taskCall, 314: taskCall,
		141: setpriorityCall, 251: ioprioCall, 72: fcntlCall, 16: ioctlCall, 424: pidfdSignalCall,
		30: shmatCall, 31: shmctlCall, 64: ipcCall, 65: ipcCall, 66: ipcCall, 68: ipcCall, 69: ipcCall, 70: ipcCall, 71: ipcCall,
		220: ipcCall, 240: ipcCall, 241: ipcCall, 242: ipcCall, 243: ipcCall, 244: ipcCall, 245: ipcCall,
		90: chmodCall, 91: fchmodCall, 268: fchmodatCall, 452: fchmodat2Call,
		92: chownCall, 93: fchownCall, 94: lchownCall, 260: fchownatCall,
	}
	i386Calls = map[uint32]procCall{
		37: killCall, 238: taskCall, 270: tgkillCall, 178: taskCall, 335: tgkillCall,
		340: taskCall, 154: taskCall, 156: taskCall, 241: taskCall, 351: taskCall,
		97: setpriorityCall, 289: ioprioCall, 55: fcntlCall, 221: fcntlCall, 54: ioctlCall, 424: pidfdSignalCall,
		396: shmctlCall, 397: shmatCall, 117: ipcCall, 393: ipcCall, 394: ipcCall, 399: ipcCall, 400: ipcCall, 401: ipcCall, 402: ipcCall,
		277: ipcCall, 278: ipcCall, 279: ipcCall, 280: ipcCall, 281: ipcCall, 282: ipcCall, 418: ipcCall, 419: ipcCall, 420: ipcCall,
		15: chmodCall, 94: fchmodCall, 306: fchmodatCall, 452: fchmodat2Call,
		16: chown16Call, 95: chown16Call, 182: chown16Call, 198: lchownCall, 207: fchownCall, 212: chownCall, 298: fchownatCall,
	}
	armCalls = map[uint32]procCall{
		37: killCall, 238: taskCall, 268: tgkillCall, 178: taskCall, 363: tgkillCall,
		369: taskCall, 154: taskCall, 156: taskCall, 241: taskCall, 380: taskCall,
		97: setpriorityCall, 314: ioprioCall, 55: fcntlCall, 221: fcntlCall, 54: ioctlCall, 424: pidfdSignalCall,
		305: shmatCall, 308: shmctlCall, 274: ipcCall, 275: ipcCall, 276: ipcCall, 277: ipcCall, 278: ipcCall, 279: ipcCall,
		298: ipcCall, 299: ipcCall, 300: ipcCall, 301: ipcCall, 302: ipcCall, 303: ipcCall, 304: ipcCall, 312: ipcCall,
		418: ipcCall, 419: ipcCall, 420: ipcCall,
		15: chmodCall, 94: fchmodCall, 333: fchmodatCall, 452: fchmodat2Call,
		16: chown16Call, 95: chown16Call, 182: chown16Call, 198: lchownCall, 207: fchownCall, 212: chownCall, 325: fchownatCall,
	}
)

// procABIs are the ABIs a process of GOARCH can make system calls in, the
// native one first (x32's numbers on x86-64 fail with ENOSYS, as in the
// unix socket filter).
var procABIs = map[string][]procABI{
	"amd64":   {{unix.AUDIT_ARCH_X86_64, x86_64Calls}, {unix.AUDIT_ARCH_I386, i386Calls}},
	"arm64":   {{unix.AUDIT_ARCH_AARCH64, genericCalls}, {unix.AUDIT_ARCH_ARM, armCalls}},
	"riscv64": {{unix.AUDIT_ARCH_RISCV64, genericCalls}},
	"loong64": {{unix.AUDIT_ARCH_LOONGARCH64, genericCalls}},
}

// offArg1 is seccomp_data's args[1]'s low word.
const offArg1 = offArg0 + 8

// The filter's own verdicts, and its labels.
const (
	retNotify   = unix.SECCOMP_RET_USER_NOTIF
	retEPERM    = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	labelNotify = "notify"
	labelEPERM  = "eperm"
)

// fioSetOwn is the FIOSETOWN ioctl (asm-generic/sockios.h).
const fioSetOwn = 0x8901

// inodeFlagIoctls change a file's inode flags and attributes, which its
// owner may do on a descriptor opened for reading (chattr +d, +S, +A,
// a project id) and Landlock does not refuse (its ioctl right covers
// devices only): refused everywhere under Landlock alone, where the
// command's files outside could otherwise be changed (docs/guard.md).
// FS_IOC_SETFLAGS and FS_IOC_SETVERSION for a 64-bit and a 32-bit long,
// FS_IOC_FSSETXATTR.
var inodeFlagIoctls = []uint32{0x40086602, 0x40046602, 0x40087602, 0x40047602, 0x401c5820}

// whoUser is setpriority's PRIO_USER and ioprio_set's IOPRIO_WHO_USER: every
// process of a user.
var whoUser = map[procCall]uint32{setpriorityCall: unix.PRIO_USER, ioprioCall: 3}

// processFilter is the classic BPF program of the process filter for a
// process of goarch; an error for an architecture it does not know (the
// launcher then refuses to start the command: fail closed).
func processFilter(goarch string) ([]unix.SockFilter, error) {
	a, err := archProgram("process filter", "install bubblewrap, or set sandbox.mode", goarch, procABIs, func(abi procABI) uint32 { return abi.arch }, func(a *bpfAsm, _ int, abi procABI) {
		nrs := make([]uint32, 0, len(abi.calls))
		for nr := range abi.calls {
			nrs = append(nrs, nr)
		}
		sort.Slice(nrs, func(a, b int) bool { return nrs[a] < nrs[b] })
		for _, nr := range nrs {
			a.jumpIfEqual(nr, callLabel(abi.calls[nr]), "")
		}
		a.ret(retAllow)
	})
	if err != nil {
		return nil, err
	}
	// The calls' checks: pid 0 (the caller, its group) passes at once.
	for _, c := range []procCall{killCall, taskCall, tgkillCall} {
		a.label(callLabel(c))
		a.load(offArg0)
		a.jumpIfEqual(0, labelAllow, labelNotify)
	}
	for _, c := range []procCall{setpriorityCall, ioprioCall} {
		a.label(callLabel(c))
		a.load(offArg0)
		a.jumpIfEqual(whoUser[c], labelNotify, "")
		a.load(offArg1)
		a.jumpIfEqual(0, labelAllow, labelNotify)
	}
	a.label(callLabel(fcntlCall))
	a.load(offArg1)
	a.jumpIfEqual(unix.F_SETOWN, labelNotify, "")
	a.jumpIfEqual(unix.F_SETOWN_EX, labelEPERM, labelAllow)
	a.label(callLabel(ioctlCall))
	a.load(offArg1)
	a.jumpIfEqual(fioSetOwn, labelEPERM, "")
	for _, req := range inodeFlagIoctls {
		a.jumpIfEqual(req, labelEPERM, "")
	}
	a.jumpIfEqual(unix.SIOCSPGRP, labelEPERM, labelAllow)
	a.label(callLabel(shmatCall))
	a.label(callLabel(shmctlCall))
	a.label(callLabel(chmodCall))
	a.label(callLabel(fchmodCall))
	a.label(callLabel(fchmodatCall))
	a.label(callLabel(fchmodat2Call))
	a.label(callLabel(chownCall))
	a.label(callLabel(lchownCall))
	a.label(callLabel(fchownCall))
	a.label(callLabel(fchownatCall))
	a.ret(retNotify)
	a.label(callLabel(pidfdSignalCall))
	a.label(callLabel(ipcCall))
	a.label(callLabel(chown16Call))
	a.ret(retENOSYS)
	a.verdicts(verdict{labelAllow, retAllow}, verdict{labelNotify, retNotify}, verdict{labelEPERM, retEPERM}, verdict{labelNoSys, retENOSYS})
	return a.assemble()
}

// callLabel is the label of c's checks.
func callLabel(c procCall) string { return fmt.Sprint("call", int(c)) }
