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

// keyringABIs are the ABIs a process of GOARCH can make system calls in,
// the native one first.
var keyringABIs = map[string][]callList{
	"amd64":   {{unix.AUDIT_ARCH_X86_64, []uint32{248, 249, 250}}, {unix.AUDIT_ARCH_I386, []uint32{286, 287, 288}}},
	"arm64":   {{unix.AUDIT_ARCH_AARCH64, []uint32{217, 218, 219}}, {unix.AUDIT_ARCH_ARM, []uint32{309, 310, 311}}},
	"riscv64": {{unix.AUDIT_ARCH_RISCV64, []uint32{217, 218, 219}}},
	"loong64": {{unix.AUDIT_ARCH_LOONGARCH64, []uint32{217, 218, 219}}},
}

// keyringFilter is the classic BPF program of the keyring filter for a
// process of goarch; an error for an architecture it does not know (the
// launcher then refuses to start the command: fail closed).
func keyringFilter(goarch string) ([]unix.SockFilter, error) {
	return denyProgram("keyring filter", "set sandbox.mode", goarch, keyringABIs, retEPERM)
}
