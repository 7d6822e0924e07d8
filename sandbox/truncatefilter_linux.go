package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Landlock knows truncation only from ABI 3 (Linux 6.2,
// LANDLOCK_ACCESS_FS_TRUNCATE). Before it, the kernel checks neither
// truncate(2) by path nor open(2) with O_TRUNC on a file opened for
// reading only, or for neither reading nor writing (O_ACCMODE: Linux
// truncates it all the same): a command under
// Landlock alone on Linux 5.13–6.1 could empty any file its user may
// write, outside the workspace too. So there the launcher adds a seccomp
// filter: truncate and truncate64 fail with EPERM, and so do open and
// openat whose flags ask O_TRUNC without O_WRONLY or O_RDWR; openat2, whose flags the
// filter cannot read, fails with ENOSYS (as on a kernel without it:
// callers fall back to openat). ftruncate needs a descriptor opened for
// writing, which Landlock checked at open. A command that truncates a
// workspace file by path fails there too (write it through a descriptor
// instead). docs/guard.md "What each layer gives".

// truncateABI is one system call ABI's calls the filter judges; 0 for one
// it does not have.
type truncateABI struct {
	arch                  uint32 // AUDIT_ARCH_*
	truncate, truncate64  uint32
	open, openat, openat2 uint32
}

// offArg2 is seccomp_data's args[2]'s low word.
const offArg2 = offArg1 + 8

// truncateABIs are the ABIs a process of GOARCH can make system calls in,
// the native one first.
var truncateABIs = map[string][]truncateABI{
	"amd64": {
		{arch: unix.AUDIT_ARCH_X86_64, truncate: 76, open: 2, openat: 257, openat2: 437},
		{arch: unix.AUDIT_ARCH_I386, truncate: 92, truncate64: 193, open: 5, openat: 295, openat2: 437},
	},
	"arm64": {
		{arch: unix.AUDIT_ARCH_AARCH64, truncate: 45, openat: 56, openat2: 437},
		{arch: unix.AUDIT_ARCH_ARM, truncate: 92, truncate64: 193, open: 5, openat: 322, openat2: 437},
	},
	"riscv64": {{arch: unix.AUDIT_ARCH_RISCV64, truncate: 45, openat: 56, openat2: 437}},
	"loong64": {{arch: unix.AUDIT_ARCH_LOONGARCH64, truncate: 45, openat: 56, openat2: 437}},
}

// denyTruncation installs truncateFilter on every thread of this process
// for good.
func denyTruncation() error { return addFilter("truncate filter", truncateFilter) }

// truncateFilter is the classic BPF program of the truncate filter for a
// process of goarch; an error for an architecture it does not know (the
// launcher then refuses to start the command: fail closed).
func truncateFilter(goarch string) ([]unix.SockFilter, error) {
	a, err := archProgram("truncate filter", "install bubblewrap, or set sandbox.mode", goarch, truncateABIs, func(abi truncateABI) uint32 { return abi.arch }, func(a *bpfAsm, i int, abi truncateABI) {
		for _, nr := range []uint32{abi.truncate, abi.truncate64} {
			if nr != 0 {
				a.jumpIfEqual(nr, labelEPERM, "")
			}
		}
		a.jumpIfEqual(abi.openat2, labelNoSys, "")
		if abi.open != 0 {
			a.jumpIfEqual(abi.open, fmt.Sprint("open", i), "")
		}
		a.jumpIfEqual(abi.openat, fmt.Sprint("openat", i), "")
		a.ret(retAllow)
		if abi.open != 0 {
			a.label(fmt.Sprint("open", i))
			a.load(offArg1) // open(path, flags, mode)
			a.truncatingOpen()
		}
		a.label(fmt.Sprint("openat", i))
		a.load(offArg2) // openat(dirfd, path, flags, mode)
		a.truncatingOpen()
	})
	if err != nil {
		return nil, err
	}
	a.verdicts(verdict{labelAllow, retAllow}, verdict{labelEPERM, retEPERM}, verdict{labelNoSys, retENOSYS})
	return a.assemble()
}

// truncatingOpen judges the open flags just loaded: O_TRUNC with an
// access mode that is neither O_WRONLY nor O_RDWR is refused.
func (a *bpfAsm) truncatingOpen() {
	a.and(unix.O_ACCMODE | unix.O_TRUNC)
	a.jumpIfEqual(unix.O_RDONLY|unix.O_TRUNC, labelEPERM, "")
	a.jumpIfEqual(unix.O_ACCMODE|unix.O_TRUNC, labelEPERM, labelAllow)
}
