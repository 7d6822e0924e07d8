package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// x32Bit marks an x32 system call on x86-64 (__X32_SYSCALL_BIT).
const x32Bit = 0x40000000

// hasX32 reports whether a process of goarch can make x32 system calls:
// its native ABI's numbers with x32Bit set.
func hasX32(goarch string) bool { return goarch == "amd64" }

// perABI assembles the opening every filter of the launcher shares for a
// process of goarch: a jump by the calling ABI among the n of arch(i) (an
// ABI not listed: ENOSYS), then for each its label, its system call
// number loaded (x32's numbers on the first, native ABI refused with
// ENOSYS: hasX32), and body(i). The caller ends the program with the
// verdicts its bodies jump to.
func (a *bpfAsm) perABI(goarch string, n int, arch func(i int) uint32, body func(i int)) {
	a.load(offArch)
	for i := range n {
		a.jumpIfEqual(arch(i), fmt.Sprint("abi", i), "")
	}
	a.ret(retENOSYS)
	for i := range n {
		a.label(fmt.Sprint("abi", i))
		a.load(offNr)
		if i == 0 && hasX32(goarch) {
			a.jumpIfAtLeast(x32Bit, labelNoSys, "")
		}
		body(i)
	}
}

// archProgram begins the program of the filter what for a process of
// goarch from its per-architecture table: the dispatch on the audit
// architecture (perABI), then body for each of goarch's ABIs. An
// architecture the table does not know is an error naming fix (the
// launcher then refuses to start the command: fail closed).
func archProgram[T any](what, fix, goarch string, table map[string][]T, arch func(T) uint32, body func(a *bpfAsm, i int, abi T)) (*bpfAsm, error) {
	abis, ok := table[goarch]
	if !ok {
		return nil, fmt.Errorf("no %s for %s: %s", what, goarch, fix)
	}
	a := &bpfAsm{}
	a.perABI(goarch, len(abis), func(i int) uint32 { return arch(abis[i]) }, func(i int) { body(a, i, abis[i]) })
	return a, nil
}

// verdict is a labelled return at a program's end.
type verdict struct {
	label string
	ret   uint32
}

// verdicts ends a program with vs.
func (a *bpfAsm) verdicts(vs ...verdict) {
	for _, v := range vs {
		a.label(v.label)
		a.ret(v.ret)
	}
}

// bpfAsm assembles a classic BPF program whose jumps name labels (always
// forward, as BPF's are).
type bpfAsm struct {
	prog   []unix.SockFilter
	labels map[string]int
	jumps  []bpfJump
}

// bpfJump is a conditional jump's labels ("" is the next instruction).
type bpfJump struct {
	at      int
	yes, no string
}

func (a *bpfAsm) load(offset uint32) {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: offset})
}

func (a *bpfAsm) ret(v uint32) {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: v})
}

// and masks the accumulator with k.
func (a *bpfAsm) and(k uint32) {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
}

func (a *bpfAsm) jumpIfEqual(k uint32, yes, no string) { a.jump(unix.BPF_JEQ, k, yes, no) }

func (a *bpfAsm) jumpIfAtLeast(k uint32, yes, no string) { a.jump(unix.BPF_JGE, k, yes, no) }

func (a *bpfAsm) jump(op uint16, k uint32, yes, no string) {
	a.jumps = append(a.jumps, bpfJump{len(a.prog), yes, no})
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.prog)
}

// assemble resolves the jumps.
func (a *bpfAsm) assemble() ([]unix.SockFilter, error) {
	offset := func(at int, label string) (uint8, error) {
		if label == "" {
			return 0, nil
		}
		to, ok := a.labels[label]
		if !ok || to <= at || to-at-1 > 255 {
			return 0, fmt.Errorf("seccomp filter: jump from %d to %q out of reach", at, label)
		}
		return uint8(to - at - 1), nil
	}
	for _, j := range a.jumps {
		yes, err := offset(j.at, j.yes)
		if err != nil {
			return nil, err
		}
		no, err := offset(j.at, j.no)
		if err != nil {
			return nil, err
		}
		a.prog[j.at].Jt, a.prog[j.at].Jf = yes, no
	}
	return a.prog, nil
}

// callList is one system call ABI's calls a deny filter refuses.
type callList struct {
	arch uint32 // AUDIT_ARCH_*
	nrs  []uint32
}

// denyProgram is the classic BPF program of the filter what for a process
// of goarch: the calls its table lists for the calling ABI get ret, an ABI
// the table does not list ENOSYS, every other call passes. An architecture
// the table does not know is an error naming fix (fail closed).
func denyProgram(what, fix, goarch string, table map[string][]callList, ret uint32) ([]unix.SockFilter, error) {
	a, err := archProgram(what, fix, goarch, table, func(abi callList) uint32 { return abi.arch }, func(a *bpfAsm, _ int, abi callList) {
		for _, nr := range abi.nrs {
			a.jumpIfEqual(nr, labelDeny, "") // a label only: its verdict here is ret
		}
		a.ret(retAllow)
	})
	if err != nil {
		return nil, err
	}
	a.verdicts(verdict{labelDeny, ret}, verdict{labelNoSys, retENOSYS})
	return a.assemble()
}
