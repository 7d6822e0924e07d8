package sandbox

import (
	"fmt"
	"slices"

	"golang.org/x/sys/unix"
)

// The socket filter: a seccomp filter the launcher adds before it execs
// every confined command, which decides by family what socket(2) may
// open; the rest fails with EACCES. docs/guard.md "What each layer gives".
//
//   - Always: the families that leave the machine or reach its hypervisor
//     and that no network namespace holds — vsock (a VM's host: WSL's,
//     a cloud VM's agent), packet, bluetooth, CAN, TIPC… — are refused,
//     as under Flatpak and Docker. A command keeps AF_UNIX, IP, and the
//     families that reach only the kernel (netlink, AF_ALG).
//   - Under Landlock alone (no bubblewrap to cover the sockets outside
//     with /dev/null, and Landlock restricting a named socket's connect
//     only from ABI 9) a command could connect to any named unix socket
//     its user may open: the Docker daemon's (a container with / mounted:
//     root), tmux's (keys typed into the user's shell), an editor's. There
//     AF_UNIX goes too (socketRule.noUnix) — named and abstract alike,
//     wherever they stand — while socketpair(2) (pipes between a program's
//     own processes: Node's, Python's) works.
//   - Landlock alone has no network namespace either: a command without
//     the network (no run.network rule) would reach the internet and every
//     service of this machine on its loopback (a database, Docker's TCP
//     socket, a notebook server). There IP goes too (socketRule.noNetwork),
//     as under Codex's Linux sandbox. The cost: no loopback of the
//     command's own (a test's local server); bubblewrap gives one.
//
// io_uring_setup fails with ENOSYS (a ring could open and connect a socket
// without a system call the filter sees), and so does every system call of
// an ABI the filter does not know (x32 on x86-64) — programs fall back from
// both. A 32-bit x86 program's socketcall(SYS_SOCKET) is refused whatever
// its family (the family is behind a pointer).

// seccomp_data's offsets (linux/seccomp.h): nr, arch, args[0]'s low word
// (little-endian: every architecture below).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
)

// sysSocketCall is socketcall(2)'s call number for socket(2).
const sysSocketCall = 1

// abiCalls is one system call ABI's numbers (0: the ABI has no such call).
type abiCalls struct {
	arch                        uint32 // AUDIT_ARCH_*
	socket, socketcall, ioUring uint32
}

// filterABIs are the ABIs a process of GOARCH can make system calls in:
// the native one first.
var filterABIs = map[string][]abiCalls{
	"amd64": {
		{arch: unix.AUDIT_ARCH_X86_64, socket: 41, ioUring: 425},
		{arch: unix.AUDIT_ARCH_I386, socket: 359, socketcall: 102, ioUring: 425},
	},
	"arm64": {
		{arch: unix.AUDIT_ARCH_AARCH64, socket: 198, ioUring: 425},
		{arch: unix.AUDIT_ARCH_ARM, socket: 281, ioUring: 425},
	},
	"riscv64": {{arch: unix.AUDIT_ARCH_RISCV64, socket: 198, ioUring: 425}},
	"loong64": {{arch: unix.AUDIT_ARCH_LOONGARCH64, socket: 198, ioUring: 425}},
}

// The filter's verdicts.
const (
	retAllow   = unix.SECCOMP_RET_ALLOW
	retEACCES  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	retENOSYS  = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	labelAllow = "allow"
	labelDeny  = "eacces"
	labelNoSys = "enosys"
)

// socketRule says which sockets the filter refuses besides the foreign
// families (every family but kernelFamilies, AF_UNIX and IP), which it
// always refuses.
type socketRule struct {
	// noUnix refuses AF_UNIX (Status.unixSocketsOff).
	noUnix bool
	// noNetwork refuses IP, AF_INET and AF_INET6 (Status.networkOff).
	noNetwork bool
}

// kernelFamilies are the socket families that reach only the kernel:
// netlink (routes and addresses, which getaddrinfo reads) and AF_ALG (its
// ciphers). Every confined command keeps them.
var kernelFamilies = []uint32{unix.AF_NETLINK, unix.AF_ALG}

// allowed are the families socket(2) may open under r.
func (r socketRule) allowed() []uint32 {
	out := slices.Clone(kernelFamilies)
	if !r.noUnix {
		out = append(out, unix.AF_UNIX)
	}
	if !r.noNetwork {
		out = append(out, unix.AF_INET, unix.AF_INET6)
	}
	return out
}

// socketFilter is the classic BPF program of the filter for a process of
// goarch under rule; an error for an architecture it does not know (the
// launcher then refuses to start the command: fail closed).
func socketFilter(goarch string, rule socketRule) ([]unix.SockFilter, error) {
	a, err := archProgram("socket filter", "install bubblewrap, or set sandbox.mode", goarch, filterABIs, func(abi abiCalls) uint32 { return abi.arch }, func(a *bpfAsm, i int, abi abiCalls) {
		a.jumpIfEqual(abi.ioUring, labelNoSys, "")
		a.jumpIfEqual(abi.socket, fmt.Sprint("socket", i), "")
		if abi.socketcall != 0 {
			a.jumpIfEqual(abi.socketcall, fmt.Sprint("socketcall", i), "")
		}
		a.ret(retAllow)
		a.label(fmt.Sprint("socket", i))
		a.load(offArg0)
		for _, f := range rule.allowed() {
			a.jumpIfEqual(f, labelAllow, "")
		}
		a.ret(retEACCES)
		if abi.socketcall != 0 {
			a.label(fmt.Sprint("socketcall", i))
			a.load(offArg0)
			a.jumpIfEqual(sysSocketCall, labelDeny, labelAllow)
		}
	})
	if err != nil {
		return nil, err
	}
	a.verdicts(verdict{labelAllow, retAllow}, verdict{labelDeny, retEACCES}, verdict{labelNoSys, retENOSYS})
	return a.assemble()
}
