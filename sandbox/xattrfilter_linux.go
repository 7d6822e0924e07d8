package sandbox

import (
	"golang.org/x/sys/unix"
)

// Landlock has no right for extended attributes at any ABI (up to 7):
// under Landlock alone a command could set or remove the xattrs of any
// file of its user, outside the workspace too — its POSIX ACLs among them
// (system.posix_acl_access: `setfacl -m o:r ~/.ssh/id_ed25519` lets every
// user of the machine read a key). A seccomp filter cannot see the path,
// so there the launcher adds a filter that refuses setxattr, lsetxattr,
// fsetxattr, setxattrat and the four removexattr calls everywhere with
// EOPNOTSUPP, as a file system without xattrs does (cp -a, tar and
// libacl fall back to mode bits; setfacl in the workspace fails). Reading
// them works. bubblewrap mounts the outside read-only instead (EROFS).
// An ABI the filter does not list (x32 on x86-64) fails with ENOSYS, as
// in the other filters. docs/guard.md "What each layer gives".

// setxattrat and removexattrat (Linux 6.13) have the same number in every
// ABI.
const (
	sysSetxattrat    = 463
	sysRemovexattrat = 466
)

// xattrABIs are the ABIs a process of GOARCH can make system calls in,
// the native one first: setxattr, lsetxattr, fsetxattr, removexattr,
// lremovexattr, fremovexattr, setxattrat, removexattrat.
var xattrABIs = map[string][]callList{
	"amd64": {
		{unix.AUDIT_ARCH_X86_64, []uint32{188, 189, 190, 197, 198, 199, sysSetxattrat, sysRemovexattrat}},
		{unix.AUDIT_ARCH_I386, []uint32{226, 227, 228, 235, 236, 237, sysSetxattrat, sysRemovexattrat}},
	},
	"arm64": {
		{unix.AUDIT_ARCH_AARCH64, []uint32{5, 6, 7, 14, 15, 16, sysSetxattrat, sysRemovexattrat}},
		{unix.AUDIT_ARCH_ARM, []uint32{226, 227, 228, 235, 236, 237, sysSetxattrat, sysRemovexattrat}},
	},
	"riscv64": {{unix.AUDIT_ARCH_RISCV64, []uint32{5, 6, 7, 14, 15, 16, sysSetxattrat, sysRemovexattrat}}},
	"loong64": {{unix.AUDIT_ARCH_LOONGARCH64, []uint32{5, 6, 7, 14, 15, 16, sysSetxattrat, sysRemovexattrat}}},
}

// retEOPNOTSUPP is the xattr filter's refusal.
const retEOPNOTSUPP = unix.SECCOMP_RET_ERRNO | uint32(unix.EOPNOTSUPP)

// denyXattrChanges installs xattrFilter on every thread of this process
// for good.
func denyXattrChanges() error { return addFilter("xattr filter", xattrFilter) }

// xattrFilter is the classic BPF program of the xattr filter for a
// process of goarch; an error for an architecture it does not know (the
// launcher then refuses to start the command: fail closed).
func xattrFilter(goarch string) ([]unix.SockFilter, error) {
	return denyProgram("xattr filter", "install bubblewrap, or set sandbox.mode", goarch, xattrABIs, retEOPNOTSUPP)
}
