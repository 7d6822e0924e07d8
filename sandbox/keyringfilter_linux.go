package sandbox

import (
	"golang.org/x/sys/unix"
)

// The kernel's keyrings are not behind a path, a PID namespace or a user
// namespace agentls can give a command: a process possesses its session
// keyring (setsid keeps it, bubblewrap does not replace it) and its
// user's keyring, so a command under every layer could read what its user
// keeps there — Kerberos tickets (a KEYRING: cache, Fedora's default), an
// ecryptfs passphrase, a token a tool stored. So in every confined mode
// the launcher adds a seccomp filter: add_key, request_key and keyctl fail
// with EPERM, as in Docker's and Flatpak's default profiles (kinit with a
// keyring cache fails in a command; a FILE: cache works). An ABI the
// filter does not list (x32 on x86-64) fails with ENOSYS, as in the other
// filters. docs/guard.md "What each layer gives".

// keyringABI is one system call ABI's add_key, request_key and keyctl.
type keyringABI struct {
	arch uint32 // AUDIT_ARCH_*
	nrs  [3]uint32
}

// keyringABIs are the ABIs a process of GOARCH can make system calls in,
// the native one first.
var keyringABIs = map[string][]keyringABI{
	"amd64":   {{unix.AUDIT_ARCH_X86_64, [3]uint32{248, 249, 250}}, {unix.AUDIT_ARCH_I386, [3]uint32{286, 287, 288}}},
	"arm64":   {{unix.AUDIT_ARCH_AARCH64, [3]uint32{217, 218, 219}}, {unix.AUDIT_ARCH_ARM, [3]uint32{309, 310, 311}}},
	"riscv64": {{unix.AUDIT_ARCH_RISCV64, [3]uint32{217, 218, 219}}},
	"loong64": {{unix.AUDIT_ARCH_LOONGARCH64, [3]uint32{217, 218, 219}}},
}

// keyringFilter is the classic BPF program of the keyring filter for a
// process of goarch; an error for an architecture it does not know (the
// launcher then refuses to start the command: fail closed).
func keyringFilter(goarch string) ([]unix.SockFilter, error) {
	a, err := archProgram("keyring filter", "set sandbox.mode", goarch, keyringABIs, func(abi keyringABI) uint32 { return abi.arch }, func(a *bpfAsm, _ int, abi keyringABI) {
		for _, nr := range abi.nrs {
			a.jumpIfEqual(nr, labelEPERM, "")
		}
		a.ret(retAllow)
	})
	if err != nil {
		return nil, err
	}
	a.verdicts(verdict{labelEPERM, retEPERM}, verdict{labelNoSys, retENOSYS})
	return a.assemble()
}
