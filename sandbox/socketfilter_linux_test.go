package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// badProgram is runFilter's verdict for a program that misbehaves.
const badProgram = ^uint32(0)

// runFilter runs a classic BPF program (the instructions socketFilter
// and processFilter use) over seccomp_data of arch, nr and args, and returns its
// verdict; badProgram when the program misbehaves (a load out of bounds,
// an unknown instruction, running off its end).
func runFilter(prog []unix.SockFilter, arch, nr uint32, args ...uint64) uint32 {
	var data [64]byte
	binary.LittleEndian.PutUint32(data[offNr:], nr)
	binary.LittleEndian.PutUint32(data[offArch:], arch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[offArg0+8*i:], a)
	}
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			if in.K%4 != 0 || in.K+4 > uint32(len(data)) {
				return badProgram
			}
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K:
			if acc == in.K {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K:
			if acc >= in.K {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			acc &= in.K
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			return badProgram
		}
	}
	return badProgram
}

// wantVerdict is what the filter under rule must answer, said plainly.
func wantVerdict(goarch string, rule socketRule, arch, nr uint32, arg0 uint64) uint32 {
	t := filterABIs[goarch]
	for i, abi := range t {
		if arch != abi.arch {
			continue
		}
		switch {
		case i == 0 && hasX32(goarch) && nr&x32Bit != 0:
			return retENOSYS
		case nr == abi.ioUring:
			return retENOSYS
		case nr == abi.socket:
			return familyVerdict(rule, uint32(arg0))
		case abi.socketcall != 0 && nr == abi.socketcall && uint32(arg0) == sysSocketCall:
			return retEACCES
		}
		return retAllow
	}
	return retENOSYS
}

// familyVerdict is what socket(family, …) gets under rule.
func familyVerdict(rule socketRule, family uint32) uint32 {
	switch family {
	case unix.AF_NETLINK, unix.AF_ALG:
		return retAllow
	case unix.AF_UNIX:
		if rule.noUnix {
			return retEACCES
		}
		return retAllow
	case unix.AF_INET, unix.AF_INET6:
		if rule.noNetwork {
			return retEACCES
		}
		return retAllow
	}
	return retEACCES
}

// TestSocketFilter: the filter's verdicts for each architecture it knows,
// against a table and the plain statement of wantVerdict.
func TestSocketFilter(t *testing.T) {
	const (
		afUnix  = unix.AF_UNIX
		afInet  = unix.AF_INET
		afInet6 = unix.AF_INET6
	)
	unixOff := socketRule{noUnix: true}
	netOff := socketRule{noUnix: true, noNetwork: true}
	netOffUnixOn := socketRule{noNetwork: true}
	for _, c := range []struct {
		goarch string
		rule   socketRule
		arch   uint32
		nr     uint32
		arg0   uint64
		want   uint32
	}{
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, afInet, retEACCES},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, afInet6, retEACCES},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, 1<<32 | afInet, retEACCES},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, unix.AF_VSOCK, retEACCES},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, unix.AF_PACKET, retEACCES},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, afUnix, retEACCES},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, unix.AF_NETLINK, retAllow},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 41, unix.AF_ALG, retAllow},
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 53, afInet, retAllow}, // socketpair
		{"amd64", netOff, unix.AUDIT_ARCH_X86_64, 425, 0, retENOSYS},
		{"amd64", netOff, unix.AUDIT_ARCH_I386, 359, afInet, retEACCES},
		{"amd64", netOff, unix.AUDIT_ARCH_I386, 102, sysSocketCall, retEACCES},
		{"amd64", netOffUnixOn, unix.AUDIT_ARCH_X86_64, 41, afUnix, retAllow},
		{"amd64", netOffUnixOn, unix.AUDIT_ARCH_X86_64, 41, afInet, retEACCES},
		{"arm64", netOff, unix.AUDIT_ARCH_AARCH64, 198, afInet6, retEACCES},
		{"arm64", netOff, unix.AUDIT_ARCH_AARCH64, 198, unix.AF_NETLINK, retAllow},
		{"arm64", netOff, unix.AUDIT_ARCH_ARM, 281, afInet, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, afUnix, retAllow},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, afInet, retAllow},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, afInet6, retAllow},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, unix.AF_NETLINK, retAllow},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, unix.AF_VSOCK, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, 1<<32 | unix.AF_VSOCK, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, unix.AF_PACKET, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, unix.AF_BLUETOOTH, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, unix.AF_UNSPEC, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_X86_64, 41, 1 << 31, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_I386, 359, unix.AF_VSOCK, retEACCES},
		{"amd64", socketRule{}, unix.AUDIT_ARCH_I386, 102, sysSocketCall, retEACCES},
		{"arm64", socketRule{}, unix.AUDIT_ARCH_AARCH64, 198, unix.AF_VSOCK, retEACCES},
		{"arm64", socketRule{}, unix.AUDIT_ARCH_AARCH64, 198, afInet, retAllow},
		{"riscv64", socketRule{}, unix.AUDIT_ARCH_RISCV64, 198, unix.AF_VSOCK, retEACCES},
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 41, unix.AF_VSOCK, retEACCES},
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 41, afUnix, retEACCES},
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 41, 1<<32 | afUnix, retEACCES}, // the kernel reads an int
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 41, afInet, retAllow},
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 41, afInet6, retAllow},
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 53, afUnix, retAllow}, // socketpair
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 42, afUnix, retAllow}, // connect: needs a socket
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, 425, 0, retENOSYS},    // io_uring_setup
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, x32Bit | 41, afUnix, retENOSYS},
		{"amd64", unixOff, unix.AUDIT_ARCH_X86_64, x32Bit | 39, 0, retENOSYS},
		{"amd64", unixOff, unix.AUDIT_ARCH_I386, 359, afUnix, retEACCES},
		{"amd64", unixOff, unix.AUDIT_ARCH_I386, 359, afInet, retAllow},
		{"amd64", unixOff, unix.AUDIT_ARCH_I386, 102, sysSocketCall, retEACCES}, // socketcall(SYS_SOCKET, …)
		{"amd64", unixOff, unix.AUDIT_ARCH_I386, 102, 8, retAllow},              // socketcall(SYS_SOCKETPAIR, …)
		{"amd64", unixOff, unix.AUDIT_ARCH_I386, 425, 0, retENOSYS},
		{"amd64", unixOff, unix.AUDIT_ARCH_I386, 41, afUnix, retAllow}, // i386's 41 is dup
		{"amd64", unixOff, unix.AUDIT_ARCH_AARCH64, 198, afUnix, retENOSYS},
		{"arm64", unixOff, unix.AUDIT_ARCH_AARCH64, 198, afUnix, retEACCES},
		{"arm64", unixOff, unix.AUDIT_ARCH_AARCH64, 198, afInet, retAllow},
		{"arm64", unixOff, unix.AUDIT_ARCH_AARCH64, 41, afUnix, retAllow},
		{"arm64", unixOff, unix.AUDIT_ARCH_AARCH64, 425, 0, retENOSYS},
		{"arm64", unixOff, unix.AUDIT_ARCH_AARCH64, x32Bit | 198, afUnix, retAllow}, // no x32 there: the kernel says ENOSYS
		{"arm64", unixOff, unix.AUDIT_ARCH_ARM, 281, afUnix, retEACCES},
		{"arm64", unixOff, unix.AUDIT_ARCH_ARM, 425, 0, retENOSYS},
		{"riscv64", unixOff, unix.AUDIT_ARCH_RISCV64, 198, afUnix, retEACCES},
		{"riscv64", unixOff, unix.AUDIT_ARCH_X86_64, 41, afUnix, retENOSYS},
		{"loong64", unixOff, unix.AUDIT_ARCH_LOONGARCH64, 198, afUnix, retEACCES},
		{"loong64", unixOff, unix.AUDIT_ARCH_LOONGARCH64, 199, afUnix, retAllow},
	} {
		prog, err := socketFilter(c.goarch, c.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := runFilter(prog, c.arch, c.nr, c.arg0); got != c.want {
			t.Errorf("%s %+v: arch %#x nr %#x arg0 %#x: %#x, want %#x", c.goarch, c.rule, c.arch, c.nr, c.arg0, got, c.want)
		}
		if got := wantVerdict(c.goarch, c.rule, c.arch, c.nr, c.arg0); got != c.want {
			t.Errorf("%s %+v: wantVerdict(arch %#x nr %#x arg0 %#x) = %#x, the table says %#x", c.goarch, c.rule, c.arch, c.nr, c.arg0, got, c.want)
		}
	}
	if _, err := socketFilter("s390x", unixOff); err == nil {
		t.Error("an architecture without a table got a filter")
	}
}

// FuzzSocketFilter: the program and wantVerdict agree everywhere.
func FuzzSocketFilter(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint32(41), uint64(1), uint32(0), uint8(1))
	f.Add(uint8(0), uint8(1), uint32(102), uint64(1), uint32(0), uint8(1))
	f.Add(uint8(1), uint8(1), uint32(281), uint64(1), uint32(0), uint8(3))
	f.Add(uint8(0), uint8(2), uint32(0), uint64(0), uint32(0x40000003), uint8(2))
	f.Add(uint8(0), uint8(0), uint32(41), uint64(2), uint32(0), uint8(3))
	f.Add(uint8(0), uint8(0), uint32(41), uint64(40), uint32(0), uint8(0))
	goarchs := []string{"amd64", "arm64", "riscv64", "loong64"}
	f.Fuzz(func(t *testing.T, g, a uint8, nr uint32, arg0 uint64, rawArch uint32, r uint8) {
		goarch := goarchs[int(g)%len(goarchs)]
		rule := socketRule{noUnix: r&1 != 0, noNetwork: r&2 != 0}
		abis := filterABIs[goarch]
		arch := rawArch // any value, or one of the table's
		if int(a) < len(abis) {
			arch = abis[a].arch
		}
		prog, err := socketFilter(goarch, rule)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := runFilter(prog, arch, nr, arg0), wantVerdict(goarch, rule, arch, nr, arg0); got != want {
			t.Fatalf("%s %+v: arch %#x nr %#x arg0 %#x: %#x, want %#x", goarch, rule, arch, nr, arg0, got, want)
		}
	})
}
