package sandbox

import (
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// filterRow is one system call put to a deny filter and the verdict it
// must get.
type filterRow struct {
	name   string
	goarch string
	arch   uint32
	nr     uint32
	want   uint32
}

// TestDenyFilters: each filter built by denyProgram refuses its calls in
// each ABI it knows, lets other calls pass, fails x32 and unknown ABIs
// with ENOSYS, has no program for an architecture without a table, and
// this architecture's native numbers are x/sys/unix's.
func TestDenyFilters(t *testing.T) {
	for _, f := range []struct {
		name   string
		build  func(goarch string) ([]unix.SockFilter, error)
		table  map[string][]callList
		native []uint32
		rows   []filterRow
	}{
		{
			// add_key, request_key and keyctl are refused.
			name: "keyring", build: keyringFilter, table: keyringABIs,
			native: []uint32{unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_KEYCTL},
			rows: []filterRow{
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
			},
		},
		{
			// The calls that set or remove an extended attribute fail with
			// EOPNOTSUPP; reading one passes.
			name: "xattr", build: xattrFilter, table: xattrABIs,
			native: []uint32{unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_SETXATTRAT, unix.SYS_REMOVEXATTRAT},
			rows: []filterRow{
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
			},
		},
	} {
		for _, c := range f.rows {
			prog, err := f.build(c.goarch)
			if err != nil {
				t.Fatal(err)
			}
			if got := runFilter(prog, c.arch, c.nr); got != c.want {
				t.Errorf("%s filter, %s: %#x, want %#x", f.name, c.name, got, c.want)
			}
		}
		if _, err := f.build("s390x"); err == nil {
			t.Errorf("%s filter: an architecture without a table got a filter", f.name)
		}
		if abis, ok := f.table[runtime.GOARCH]; ok && !slices.Equal(abis[0].nrs, f.native) {
			t.Errorf("%s filter: native numbers %v, x/sys says %v", f.name, abis[0].nrs, f.native)
		}
	}
}
