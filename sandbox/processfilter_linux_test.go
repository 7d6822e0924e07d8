package sandbox

import (
	"maps"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// wantProcessVerdict is what the process filter must answer, said plainly.
func wantProcessVerdict(goarch string, arch, nr uint32, args [3]uint64) uint32 {
	low := func(i int) uint32 { return uint32(args[i]) }
	for i, abi := range procABIs[goarch] {
		if arch != abi.arch {
			continue
		}
		if i == 0 && hasX32(goarch) && nr&x32Bit != 0 {
			return retENOSYS
		}
		switch abi.calls[nr] {
		case killCall, taskCall, tgkillCall:
			if low(0) == 0 {
				return retAllow
			}
			return retNotify
		case setpriorityCall, ioprioCall:
			if low(0) != whoUser[abi.calls[nr]] && low(1) == 0 {
				return retAllow
			}
			return retNotify
		case fcntlCall:
			switch low(1) {
			case unix.F_SETOWN:
				return retNotify
			case unix.F_SETOWN_EX:
				return retEPERM
			}
		case ioctlCall:
			if low(1) == fioSetOwn || low(1) == unix.SIOCSPGRP || slices.Contains(inodeFlagIoctls, low(1)) {
				return retEPERM
			}
		case shmatCall, shmctlCall, chmodCall, fchmodCall, fchmodatCall, fchmodat2Call, chownCall, lchownCall, fchownCall, fchownatCall:
			return retNotify
		case pidfdSignalCall, ipcCall, chown16Call:
			return retENOSYS
		}
		return retAllow
	}
	return retENOSYS
}

// TestProcessFilter: the process filter's verdicts for each architecture
// it knows, against a table and the plain statement of wantProcessVerdict.
func TestProcessFilter(t *testing.T) {
	const x86, i386, arm64, arm = unix.AUDIT_ARCH_X86_64, unix.AUDIT_ARCH_I386, unix.AUDIT_ARCH_AARCH64, unix.AUDIT_ARCH_ARM
	for _, c := range []struct {
		name   string
		goarch string
		arch   uint32
		nr     uint32
		args   [3]uint64
		want   uint32
	}{
		{"kill another", "amd64", x86, 62, [3]uint64{1234, 9}, retNotify},
		{"kill a group", "amd64", x86, 62, [3]uint64{uint64(0xffff_fb2e), 9}, retNotify},
		{"kill all", "amd64", x86, 62, [3]uint64{0xffff_ffff, 9}, retNotify},
		{"kill the own group", "amd64", x86, 62, [3]uint64{0, 9}, retAllow},
		{"kill: the kernel reads an int", "amd64", x86, 62, [3]uint64{1 << 32, 9}, retAllow},
		{"tkill", "amd64", x86, 200, [3]uint64{77}, retNotify},
		{"tgkill", "amd64", x86, 234, [3]uint64{77, 78}, retNotify},
		{"prlimit64 another", "amd64", x86, 302, [3]uint64{77}, retNotify},
		{"prlimit64 self", "amd64", x86, 302, [3]uint64{0}, retAllow},
		{"sched_setaffinity", "amd64", x86, 203, [3]uint64{77}, retNotify},
		{"setpriority self", "amd64", x86, 141, [3]uint64{unix.PRIO_PROCESS, 0}, retAllow},
		{"setpriority another", "amd64", x86, 141, [3]uint64{unix.PRIO_PROCESS, 77}, retNotify},
		{"setpriority the user", "amd64", x86, 141, [3]uint64{unix.PRIO_USER, 0}, retNotify},
		{"ioprio_set the user", "amd64", x86, 251, [3]uint64{3, 0}, retNotify},
		{"ioprio_set self", "amd64", x86, 251, [3]uint64{1, 0}, retAllow},
		{"F_SETOWN", "amd64", x86, 72, [3]uint64{3, unix.F_SETOWN, 77}, retNotify},
		{"F_SETOWN_EX", "amd64", x86, 72, [3]uint64{3, unix.F_SETOWN_EX, 0}, retEPERM},
		{"F_GETFL", "amd64", x86, 72, [3]uint64{3, unix.F_GETFL}, retAllow},
		{"FIOSETOWN", "amd64", x86, 16, [3]uint64{3, fioSetOwn}, retEPERM},
		{"SIOCSPGRP", "amd64", x86, 16, [3]uint64{3, unix.SIOCSPGRP}, retEPERM},
		{"TCGETS", "amd64", x86, 16, [3]uint64{0, unix.TCGETS}, retAllow},
		{"pidfd_send_signal", "amd64", x86, 424, [3]uint64{3, 9}, retENOSYS},
		{"read", "amd64", x86, 0, [3]uint64{3}, retAllow},
		{"shmat", "amd64", x86, 30, [3]uint64{77}, retNotify},
		{"shmctl", "amd64", x86, 31, [3]uint64{77, unix.IPC_RMID}, retNotify},
		{"shmget", "amd64", x86, 29, [3]uint64{0, 4096}, retAllow},
		{"shmdt", "amd64", x86, 67, [3]uint64{0x1000}, retAllow},
		{"semget", "amd64", x86, 64, [3]uint64{1}, retENOSYS},
		{"mq_open", "amd64", x86, 240, [3]uint64{0x1000}, retENOSYS},
		{"i386 ipc", "amd64", i386, 117, [3]uint64{21}, retENOSYS},
		{"i386 shmat", "amd64", i386, 397, [3]uint64{77}, retNotify},
		{"arm64 shmctl", "arm64", arm64, 195, [3]uint64{77}, retNotify},
		{"arm msgrcv", "arm64", arm, 302, [3]uint64{77}, retENOSYS},
		{"x32 kill", "amd64", x86, x32Bit | 62, [3]uint64{77}, retENOSYS},
		{"i386 kill", "amd64", i386, 37, [3]uint64{77}, retNotify},
		{"i386 fcntl64 F_SETOWN", "amd64", i386, 221, [3]uint64{3, unix.F_SETOWN, 77}, retNotify},
		{"i386 62 is ustat", "amd64", i386, 62, [3]uint64{77}, retAllow},
		{"another ABI", "amd64", arm64, 129, [3]uint64{77}, retENOSYS},
		{"arm64 kill", "arm64", arm64, 129, [3]uint64{77}, retNotify},
		{"arm64 ioctl FIOSETOWN", "arm64", arm64, 29, [3]uint64{3, fioSetOwn}, retEPERM},
		{"chattr", "amd64", x86, 16, [3]uint64{3, unix.FS_IOC_SETFLAGS}, retEPERM},
		{"chattr, a 32-bit long", "amd64", i386, 54, [3]uint64{3, 0x40046602}, retEPERM},
		{"arm64 chattr", "arm64", arm64, 29, [3]uint64{3, 0x40086602}, retEPERM},
		{"lsattr", "amd64", x86, 16, [3]uint64{3, unix.FS_IOC_GETFLAGS}, retAllow},
		{"chmod", "amd64", x86, 90, [3]uint64{0x1000, 0o644}, retNotify},
		{"fchmodat2", "arm64", arm64, 452, [3]uint64{3, 0x1000, 0o644}, retNotify},
		{"lchown", "amd64", x86, 94, [3]uint64{0x1000, 0, 0}, retNotify},
		{"arm64 fchownat", "arm64", arm64, 54, [3]uint64{3, 0x1000, 0}, retNotify},
		{"i386 16-bit chown", "amd64", i386, 182, [3]uint64{0x1000, 0, 0}, retENOSYS},
		{"i386 chown32", "amd64", i386, 212, [3]uint64{0x1000, 0, 0}, retNotify},
		{"arm tgkill", "arm64", arm, 268, [3]uint64{77, 78}, retNotify},
		{"riscv64 prlimit64", "riscv64", unix.AUDIT_ARCH_RISCV64, 261, [3]uint64{77}, retNotify},
		{"loong64 pidfd_send_signal", "loong64", unix.AUDIT_ARCH_LOONGARCH64, 424, [3]uint64{3}, retENOSYS},
	} {
		prog, err := processFilter(c.goarch)
		if err != nil {
			t.Fatal(err)
		}
		if got := runFilter(prog, c.arch, c.nr, c.args[:]...); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
		if got := wantProcessVerdict(c.goarch, c.arch, c.nr, c.args); got != c.want {
			t.Errorf("%s: wantProcessVerdict = %#x, the table says %#x", c.name, got, c.want)
		}
	}
	if _, err := processFilter("s390x"); err == nil {
		t.Error("an architecture without a table got a filter")
	}
}

// TestProcessFilterNumbers: this architecture's native numbers are
// x/sys/unix's.
func TestProcessFilterNumbers(t *testing.T) {
	abis, ok := procABIs[runtime.GOARCH]
	if !ok {
		t.Skipf("no process filter for %s", runtime.GOARCH)
	}
	want := map[uint32]procCall{
		unix.SYS_KILL: killCall, unix.SYS_TKILL: taskCall, unix.SYS_TGKILL: tgkillCall,
		unix.SYS_RT_SIGQUEUEINFO: taskCall, unix.SYS_RT_TGSIGQUEUEINFO: tgkillCall, unix.SYS_PRLIMIT64: taskCall,
		unix.SYS_SCHED_SETPARAM: taskCall, unix.SYS_SCHED_SETSCHEDULER: taskCall, unix.SYS_SCHED_SETAFFINITY: taskCall,
		unix.SYS_SCHED_SETATTR: taskCall, unix.SYS_SETPRIORITY: setpriorityCall, unix.SYS_IOPRIO_SET: ioprioCall,
		unix.SYS_FCNTL: fcntlCall, unix.SYS_IOCTL: ioctlCall, unix.SYS_PIDFD_SEND_SIGNAL: pidfdSignalCall,
		unix.SYS_SHMAT: shmatCall, unix.SYS_SHMCTL: shmctlCall,
		unix.SYS_SEMGET: ipcCall, unix.SYS_SEMOP: ipcCall, unix.SYS_SEMCTL: ipcCall, unix.SYS_SEMTIMEDOP: ipcCall,
		unix.SYS_MSGGET: ipcCall, unix.SYS_MSGSND: ipcCall, unix.SYS_MSGRCV: ipcCall, unix.SYS_MSGCTL: ipcCall,
		unix.SYS_MQ_OPEN: ipcCall, unix.SYS_MQ_UNLINK: ipcCall, unix.SYS_MQ_TIMEDSEND: ipcCall,
		unix.SYS_MQ_TIMEDRECEIVE: ipcCall, unix.SYS_MQ_NOTIFY: ipcCall, unix.SYS_MQ_GETSETATTR: ipcCall,
		unix.SYS_FCHMOD: fchmodCall, unix.SYS_FCHMODAT: fchmodatCall, unix.SYS_FCHMODAT2: fchmodat2Call,
		unix.SYS_FCHOWN: fchownCall, unix.SYS_FCHOWNAT: fchownatCall,
	}
	maps.Copy(want, nativeChmod) // chmod(2), where the architecture has it
	got := abis[0].calls
	if len(got) != len(want) {
		t.Errorf("%d calls, want %d", len(got), len(want))
	}
	for nr, c := range want {
		if got[nr] != c {
			t.Errorf("nr %d: %v, want %v", nr, got[nr], c)
		}
	}
}

// FuzzProcessFilter: the program and wantProcessVerdict agree everywhere.
func FuzzProcessFilter(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint32(62), uint64(1), uint64(0), uint32(0))
	f.Add(uint8(0), uint8(1), uint32(221), uint64(3), uint64(unix.F_SETOWN), uint32(0))
	f.Add(uint8(1), uint8(0), uint32(140), uint64(unix.PRIO_USER), uint64(0), uint32(0))
	f.Add(uint8(0), uint8(2), uint32(0), uint64(0), uint64(0), uint32(0x40000003))
	goarchs := []string{"amd64", "arm64", "riscv64", "loong64"}
	f.Fuzz(func(t *testing.T, g, a uint8, nr uint32, arg0, arg1 uint64, rawArch uint32) {
		goarch := goarchs[int(g)%len(goarchs)]
		abis := procABIs[goarch]
		arch := rawArch // any value, or one of the table's
		if int(a) < len(abis) {
			arch = abis[a].arch
		}
		if int(a)%3 == 2 && len(abis) > 0 { // often one of the watched calls
			for n := range abis[0].calls {
				nr = n
				break
			}
		}
		prog, err := processFilter(goarch)
		if err != nil {
			t.Fatal(err)
		}
		args := [3]uint64{arg0, arg1}
		if got, want := runFilter(prog, arch, nr, args[:]...), wantProcessVerdict(goarch, arch, nr, args); got != want {
			t.Fatalf("%s: arch %#x nr %#x args %#x: %#x, want %#x", goarch, arch, nr, args, got, want)
		}
	})
}
