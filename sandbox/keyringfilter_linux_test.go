package sandbox

import (
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// TestKeyringFilter: add_key, request_key and keyctl are refused in each
// ABI the filter knows, other calls pass, x32 and unknown ABIs fail with
// ENOSYS; this architecture's native numbers are x/sys/unix's.
func TestKeyringFilter(t *testing.T) {
	for _, c := range []struct {
		name   string
		goarch string
		arch   uint32
		nr     uint32
		want   uint32
	}{
		{"add_key", "amd64", unix.AUDIT_ARCH_X86_64, 248, retEPERM},
		{"request_key", "amd64", unix.AUDIT_ARCH_X86_64, 249, retEPERM},
		{"keyctl", "amd64", unix.AUDIT_ARCH_X86_64, 250, retEPERM},
		{"read", "amd64", unix.AUDIT_ARCH_X86_64, 0, retAllow},
		{"251", "amd64", unix.AUDIT_ARCH_X86_64, 251, retAllow},
		{"x32 keyctl", "amd64", unix.AUDIT_ARCH_X86_64, x32Bit | 250, retENOSYS},
		{"i386 keyctl", "amd64", unix.AUDIT_ARCH_I386, 288, retEPERM},
		{"i386 250 is fadvise64", "amd64", unix.AUDIT_ARCH_I386, 250, retAllow},
		{"another ABI", "amd64", unix.AUDIT_ARCH_AARCH64, 219, retENOSYS},
		{"arm64 keyctl", "arm64", unix.AUDIT_ARCH_AARCH64, 219, retEPERM},
		{"arm add_key", "arm64", unix.AUDIT_ARCH_ARM, 309, retEPERM},
		{"riscv64 request_key", "riscv64", unix.AUDIT_ARCH_RISCV64, 218, retEPERM},
		{"loong64 openat", "loong64", unix.AUDIT_ARCH_LOONGARCH64, 56, retAllow},
	} {
		prog, err := keyringFilter(c.goarch)
		if err != nil {
			t.Fatal(err)
		}
		if got := runFilter(prog, c.arch, c.nr); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
	if _, err := keyringFilter("s390x"); err == nil {
		t.Error("an architecture without a table got a filter")
	}
	if abis, ok := keyringABIs[runtime.GOARCH]; ok {
		if want := []uint32{unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_KEYCTL}; !slices.Equal(abis[0].nrs, want) {
			t.Errorf("native numbers %v, x/sys says %v", abis[0].nrs, want)
		}
	}
}

// TestXattrFilter: the calls that set or remove an extended attribute
// fail with EOPNOTSUPP in each ABI the filter knows, reading them and
// other calls pass, x32 and unknown ABIs fail with ENOSYS; this
// architecture's native numbers are x/sys/unix's.
func TestXattrFilter(t *testing.T) {
	for _, c := range []struct {
		name   string
		goarch string
		arch   uint32
		nr     uint32
		want   uint32
	}{
		{"setxattr", "amd64", unix.AUDIT_ARCH_X86_64, 188, retEOPNOTSUPP},
		{"fremovexattr", "amd64", unix.AUDIT_ARCH_X86_64, 199, retEOPNOTSUPP},
		{"setxattrat", "amd64", unix.AUDIT_ARCH_X86_64, 463, retEOPNOTSUPP},
		{"getxattr", "amd64", unix.AUDIT_ARCH_X86_64, 191, retAllow},
		{"getxattrat", "amd64", unix.AUDIT_ARCH_X86_64, 464, retAllow},
		{"x32 setxattr", "amd64", unix.AUDIT_ARCH_X86_64, x32Bit | 188, retENOSYS},
		{"i386 lsetxattr", "amd64", unix.AUDIT_ARCH_I386, 227, retEOPNOTSUPP},
		{"i386 188 is getpmsg", "amd64", unix.AUDIT_ARCH_I386, 188, retAllow},
		{"another ABI", "amd64", unix.AUDIT_ARCH_AARCH64, 5, retENOSYS},
		{"arm64 setxattr", "arm64", unix.AUDIT_ARCH_AARCH64, 5, retEOPNOTSUPP},
		{"arm64 getxattr", "arm64", unix.AUDIT_ARCH_AARCH64, 8, retAllow},
		{"arm removexattr", "arm64", unix.AUDIT_ARCH_ARM, 235, retEOPNOTSUPP},
		{"riscv64 removexattrat", "riscv64", unix.AUDIT_ARCH_RISCV64, 466, retEOPNOTSUPP},
		{"loong64 fsetxattr", "loong64", unix.AUDIT_ARCH_LOONGARCH64, 7, retEOPNOTSUPP},
	} {
		prog, err := xattrFilter(c.goarch)
		if err != nil {
			t.Fatal(err)
		}
		if got := runFilter(prog, c.arch, c.nr); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
	if _, err := xattrFilter("s390x"); err == nil {
		t.Error("an architecture without a table got a filter")
	}
	if abis, ok := xattrABIs[runtime.GOARCH]; ok {
		want := []uint32{unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_SETXATTRAT, unix.SYS_REMOVEXATTRAT}
		if !slices.Equal(abis[0].nrs, want) {
			t.Errorf("native numbers %v, x/sys says %v", abis[0].nrs, want)
		}
	}
}
