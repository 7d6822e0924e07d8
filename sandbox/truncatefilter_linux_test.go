package sandbox

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTruncateFilter: truncate by path, openat2 and an open that
// truncates a file it does not open for writing are refused in each ABI
// the filter knows; an open for writing (Landlock checks it) and other
// calls pass; this architecture's native numbers are x/sys/unix's.
func TestTruncateFilter(t *testing.T) {
	fd := int32(unix.AT_FDCWD)
	at := uint64(uint32(fd))
	for _, c := range []struct {
		name   string
		goarch string
		arch   uint32
		nr     uint32
		args   []uint64
		want   uint32
	}{
		{"truncate", "amd64", unix.AUDIT_ARCH_X86_64, 76, nil, retEPERM},
		{"ftruncate", "amd64", unix.AUDIT_ARCH_X86_64, 77, nil, retAllow},
		{"openat O_RDONLY|O_TRUNC", "amd64", unix.AUDIT_ARCH_X86_64, 257, []uint64{at, 0, unix.O_RDONLY | unix.O_TRUNC}, retEPERM},
		{"openat O_ACCMODE|O_TRUNC", "amd64", unix.AUDIT_ARCH_X86_64, 257, []uint64{at, 0, unix.O_ACCMODE | unix.O_TRUNC | unix.O_CLOEXEC}, retEPERM},
		{"openat O_WRONLY|O_TRUNC", "amd64", unix.AUDIT_ARCH_X86_64, 257, []uint64{at, 0, unix.O_WRONLY | unix.O_TRUNC | unix.O_CREAT}, retAllow},
		{"openat O_RDONLY", "amd64", unix.AUDIT_ARCH_X86_64, 257, []uint64{at, 0, unix.O_RDONLY | unix.O_CLOEXEC}, retAllow},
		{"open O_RDONLY|O_TRUNC", "amd64", unix.AUDIT_ARCH_X86_64, 2, []uint64{0, unix.O_RDONLY | unix.O_TRUNC}, retEPERM},
		{"open O_RDWR|O_TRUNC", "amd64", unix.AUDIT_ARCH_X86_64, 2, []uint64{0, unix.O_RDWR | unix.O_TRUNC}, retAllow},
		{"openat2", "amd64", unix.AUDIT_ARCH_X86_64, 437, nil, retENOSYS},
		{"read", "amd64", unix.AUDIT_ARCH_X86_64, 0, nil, retAllow},
		{"x32 truncate", "amd64", unix.AUDIT_ARCH_X86_64, x32Bit | 76, nil, retENOSYS},
		{"i386 truncate64", "amd64", unix.AUDIT_ARCH_I386, 193, nil, retEPERM},
		{"i386 openat O_TRUNC", "amd64", unix.AUDIT_ARCH_I386, 295, []uint64{at, 0, unix.O_TRUNC}, retEPERM},
		{"arm64 truncate", "arm64", unix.AUDIT_ARCH_AARCH64, 45, nil, retEPERM},
		{"arm64 openat O_TRUNC", "arm64", unix.AUDIT_ARCH_AARCH64, 56, []uint64{at, 0, unix.O_TRUNC}, retEPERM},
		{"arm truncate64", "arm64", unix.AUDIT_ARCH_ARM, 193, nil, retEPERM},
		{"riscv64 openat", "riscv64", unix.AUDIT_ARCH_RISCV64, 56, []uint64{at, 0, unix.O_RDONLY}, retAllow},
		{"loong64 truncate", "loong64", unix.AUDIT_ARCH_LOONGARCH64, 45, nil, retEPERM},
	} {
		prog, err := truncateFilter(c.goarch)
		if err != nil {
			t.Fatal(err)
		}
		if got := runFilter(prog, c.arch, c.nr, c.args...); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
	if _, err := truncateFilter("s390x"); err == nil {
		t.Error("an architecture without a table got a filter")
	}
	if abis, ok := truncateABIs[runtime.GOARCH]; ok {
		if abis[0].truncate != unix.SYS_TRUNCATE || abis[0].openat != unix.SYS_OPENAT || abis[0].openat2 != unix.SYS_OPENAT2 {
			t.Errorf("native numbers %+v, x/sys says truncate %d, openat %d, openat2 %d", abis[0], unix.SYS_TRUNCATE, unix.SYS_OPENAT, unix.SYS_OPENAT2)
		}
	}
}
