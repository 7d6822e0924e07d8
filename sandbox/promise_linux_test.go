package sandbox

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// nobody is the user the sandboxed commands run as when the tests run as
// root (CI): root would pass the permission checks the sandbox's promises
// are about (each target below is readable and writable by nobody, so
// only the sandbox can refuse it).
var nobody = &User{UID: 65534, GID: 65534}

// rig is a workspace, a fake home with secrets and agentls's state and
// config folders, all owned by the user the commands run as.
type rig struct {
	t                       *testing.T
	bin                     string // the test binary, runnable by that user
	runAs                   *User
	base, ws, home, outside string
	state, config, cache    string
	environ                 []string
}

// newRig builds the rig in a folder everybody can enter.
func newRig(t *testing.T) *rig { t.Helper(); return newRigIn(t, "") }

// newRigIn builds the rig in a new folder in parent ("": the system's
// temporary folder).
func newRigIn(t *testing.T, parent string) *rig {
	t.Helper()
	base, err := os.MkdirTemp(parent, "sandbox-promise-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	must(t, os.Chmod(base, 0o755))
	r := &rig{t: t, base: base}
	r.ws = filepath.Join(base, "ws")
	r.home = filepath.Join(base, "home")
	r.outside = filepath.Join(base, "outside")
	r.state = filepath.Join(r.home, ".local", "state", "agentls")
	r.config = filepath.Join(r.home, ".config", "agentls")
	r.cache = filepath.Join(base, "cache", "ws1")
	for _, d := range []string{r.ws + "/.agentls", r.ws + "/.git", r.ws + "/src", r.home + "/.ssh", r.state + "/trust", r.config, r.outside, filepath.Dir(r.cache)} {
		must(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{r.ws + "/.agentls/session.chat", r.ws + "/.git/config", r.ws + "/go.mod", r.home + "/.ssh/id_ed25519", r.state + "/trust/x.json", r.config + "/config.yaml"} {
		must(t, os.WriteFile(f, []byte("secret\n"), 0o644))
	}
	r.bin, _ = os.Executable()
	if os.Geteuid() == 0 {
		r.runAs = nobody
		// The test binary sits in go's 0700 build folder: copy it where
		// nobody can run it, and give nobody the whole rig.
		r.bin = filepath.Join(base, "sandbox.test")
		copyFile(t, mustExe(t), r.bin)
		must(t, filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, int(nobody.UID), int(nobody.GID))
		}))
	}
	r.environ = append(os.Environ(), "HOME="+r.home, "SSH_AUTH_SOCK=/tmp/agent.sock", "GPG_AGENT_INFO=x", "DBUS_SESSION_BUS_ADDRESS=unix:path=/x")
	return r
}

// policy is the policy agentls builds for the rig's workspace.
func (r *rig) policy(mode Mode) Policy {
	return Policy{
		Mode: mode, Writable: []string{r.ws}, ProtectGit: true,
		DenyRead: append(DefaultDenyRead(r.home), r.state, r.config),
		CacheDir: r.cache, RunAs: r.runAs,
	}
}

// run runs the helper op under pol and returns its output and exit code.
func (r *rig) run(pol Policy, extra []*os.File, op ...string) (string, int) {
	r.t.Helper()
	return r.runProbed(Detect(), pol, extra, op...)
}

// runProbed is run on a machine as probe describes it.
func (r *rig) runProbed(probe Probe, pol Policy, extra []*os.File, op ...string) (string, int) {
	r.t.Helper()
	cmd, prep, err := commandWith(probe, pol, r.bin, append([]string{r.bin, helperArg}, op...), r.environ)
	if err != nil {
		r.t.Fatal(err)
	}
	defer prep.Cleanup()
	cmd.Dir = r.ws
	cmd.ExtraFiles = extra
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			r.t.Fatalf("%v: %v", op, err)
		}
		code = ee.ExitCode()
	}
	return string(out), code
}

// requireLayers skips when this machine lacks what mode needs.
func requireLayers(t *testing.T, mode Mode) Status {
	t.Helper()
	st := Detect().Status(mode)
	switch mode {
	case ModeAuto:
		if st.Mode != "landlock+bwrap" {
			t.Skipf("needs Landlock and a working bwrap: %s", st.Summary)
		}
	case ModeLandlock, ModeBwrap:
		if st.Mode != string(mode) {
			t.Skipf("needs %s: %s", mode, st.Summary)
		}
	}
	return st
}

// confinedModes are the modes each file promise is proven in.
var confinedModes = []Mode{ModeAuto, ModeLandlock, ModeBwrap}

// TestPromiseFiles: writes only in the workspace (never .agentls/, nor
// .git when ProtectGit); the secrets and agentls's own folders unreadable;
// in every confined mode.
func TestPromiseFiles(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			pol := r.policy(mode)
			for _, c := range []struct {
				name   string
				op     []string
				denied bool
			}{
				{"write outside the workspace", []string{"write", r.outside + "/x"}, true},
				{"write into the home folder", []string{"write", r.home + "/.bashrc"}, true},
				{"write inside the workspace", []string{"write", r.ws + "/src/new.go"}, false},
				{"overwrite a file at the workspace's top", []string{"write", r.ws + "/go.mod"}, false},
				{"write into .agentls", []string{"write", r.ws + "/.agentls/session.chat"}, true},
				{"create in .agentls", []string{"write", r.ws + "/.agentls/new.chat"}, true},
				{"write into .git (ProtectGit)", []string{"write", r.ws + "/.git/config"}, true},
				{"create a git hook (ProtectGit)", []string{"write", r.ws + "/.git/hooks-pre-commit"}, true},
				{"read ~/.ssh", []string{"read", r.home + "/.ssh/id_ed25519"}, true},
				{"read the state folder", []string{"read", r.state + "/trust/x.json"}, true},
				{"read the config folder", []string{"read", r.config + "/config.yaml"}, true},
				{"write the config folder", []string{"write", r.config + "/config.yaml"}, true},
				{"read the workspace", []string{"read", r.ws + "/.git/config"}, false},
				{"list outside the workspace", []string{"list", r.outside}, false},
			} {
				out, code := r.run(pol, nil, c.op...)
				if denied := code != 0; denied != c.denied {
					t.Errorf("%s: denied=%v, want %v (%s)", c.name, denied, c.denied, strings.TrimSpace(out))
				}
				if c.denied && !strings.Contains(out, "permission denied") && !strings.Contains(out, "read-only file system") && !strings.Contains(out, "no such file") {
					t.Errorf("%s: refused with %q, want EACCES/EROFS", c.name, strings.TrimSpace(out))
				}
			}
			// The same policy without .git protection (a command the user
			// approved) may write .git.
			pol.ProtectGit = false
			if out, code := r.run(pol, nil, "write", r.ws+"/.git/config"); code != 0 {
				t.Errorf("write into .git without ProtectGit: %s", out)
			}
		})
	}
}

// secretPlaces are credentials and sessions in a home folder that no
// build or test needs (paths under the home; DefaultDenyRead).
var secretPlaces = []string{
	".config/gcloud/application_default_credentials.json", ".azure/msal_token_cache.json",
	".mozilla/firefox/x.default/cookies.sqlite", "snap/firefox/common/.mozilla/firefox/x/cookies.sqlite",
	".config/google-chrome/Default/Cookies", ".config/chromium/Default/Cookies",
	".config/BraveSoftware/Brave-Browser/Default/Cookies", ".config/microsoft-edge/Default/Cookies",
	".thunderbird/x.default/logins.json", ".local/share/keyrings/login.keyring",
	".password-store/site.gpg", ".cargo/credentials.toml", ".cargo/credentials", ".gem/credentials",
	".config/containers/auth.json", ".config/rclone/rclone.conf", ".vault-token",
	".terraform.d/credentials.tfrc.json", ".config/glab-cli/config.yml", ".config/hub",
	".config/doctl/config.yaml", ".oci/config", ".s3cfg", ".boto", ".m2/settings-security.xml",
}

// TestPromiseSecretPlaces: a confined command reads none of the secret
// places of its user's home (each a file readable by the command's user,
// so only the sandbox can refuse it), nor the user's runtime folder
// (podman's registry logins, $XDG_RUNTIME_DIR/containers/auth.json), and
// still reads the home's ordinary configuration.
func TestPromiseSecretPlaces(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			for _, p := range append(slices.Clone(secretPlaces), ".config/git/config") {
				f := filepath.Join(r.home, filepath.FromSlash(p))
				must(t, os.MkdirAll(filepath.Dir(f), 0o755))
				must(t, os.WriteFile(f, []byte("secret\n"), 0o644))
			}
			paths := []string{}
			for _, p := range secretPlaces {
				paths = append(paths, filepath.Join(r.home, filepath.FromSlash(p)))
			}
			if runtime := r.runtimeDir(); runtime != "" {
				paths = append(paths, runtime)
			}
			out, code := r.run(r.policy(mode), nil, append([]string{"read-each"}, paths...)...)
			if code != 0 || strings.Contains(out, "readable: ") {
				t.Errorf("secrets a command read (exit %d):\n%s", code, out)
			}
			if out, code := r.run(r.policy(mode), nil, "read", filepath.Join(r.home, ".config/git/config")); code != 0 {
				t.Errorf("read ~/.config/git/config: %s", strings.TrimSpace(out))
			}
		})
	}
}

// runtimeDir puts a file readable by the commands' user in that user's
// runtime folder (/run/user/<uid>, made when missing and this test runs
// as root) and returns its path; "" when it cannot.
func (r *rig) runtimeDir() string {
	r.t.Helper()
	uid := os.Getuid()
	if r.runAs != nil {
		uid = int(r.runAs.UID)
	}
	dir := "/run/user/" + strconv.Itoa(uid)
	if _, err := os.Stat(dir); err != nil {
		if os.Geteuid() != 0 || os.MkdirAll(dir, 0o700) != nil {
			return ""
		}
		r.t.Cleanup(func() { os.RemoveAll(dir) })
		must(r.t, os.Chown(dir, uid, uid))
	}
	f := filepath.Join(dir, fmt.Sprintf("agentls-promise-%d-auth.json", os.Getpid()))
	must(r.t, os.WriteFile(f, []byte("secret\n"), 0o644))
	r.t.Cleanup(func() { os.Remove(f) })
	return f
}

// TestPromiseNewFilesAtTop: with bwrap the workspace's top folder takes
// new entries; Landlock alone cannot allow that next to .agentls/.
func TestPromiseNewFilesAtTop(t *testing.T) {
	for _, c := range []struct {
		mode Mode
		ok   bool
	}{{ModeAuto, true}, {ModeBwrap, true}, {ModeLandlock, false}} {
		t.Run(string(c.mode), func(t *testing.T) {
			requireLayers(t, c.mode)
			r := newRig(t)
			out, code := r.run(r.policy(c.mode), nil, "write", r.ws+"/new.txt")
			if (code == 0) != c.ok {
				t.Errorf("create %s/new.txt: ok=%v, want %v (%s)", r.ws, code == 0, c.ok, out)
			}
		})
	}
}

// victim starts a process of the commands' own user outside the sandbox
// (as the editor or agentls are) and returns its pid.
func (r *rig) victim() int {
	r.t.Helper()
	return r.startVictim(nil)
}

// startVictim starts a victim with attr.
func (r *rig) startVictim(attr *syscall.SysProcAttr) int {
	r.t.Helper()
	v := exec.Command(r.bin, helperArg, "sleep")
	v.Env = append(os.Environ(), "VICTIM_SECRET=hunter2")
	v.SysProcAttr = attr
	setUser(v, r.runAs)
	must(r.t, v.Start())
	r.t.Cleanup(func() { v.Process.Kill(); v.Wait() })
	return v.Process.Pid
}

// alive reports whether pid still runs (and is not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

// reachOps are the system calls that name another process by its pid
// (helper's reach): a confined command's own processes stay in reach of
// each but pidfd-kill (refused as on a kernel without pidfds, which
// programs fall back from: Go's os.Process to kill).
var reachOps = []string{"kill", "kill-group", "tgkill", "pidfd-kill", "prlimit", "setpriority", "setaffinity", "sigio"}

// TestPromiseOtherProcesses: a confined command can neither read another
// process's /proc/<pid>/environ nor signal it, change its limits,
// priority or CPUs, or aim SIGIO at it, though both run as the same user:
// Landlock's ptrace rule, signal scoping (ABI 6) and the reaper's watch
// over the calls that name a pid (Landlock alone, every ABI: the row
// "landlock, ABI 5" applies ABI 5's rules, which scope no signal), bwrap's
// PID namespace. Its own processes stay in reach.
func TestPromiseOtherProcesses(t *testing.T) {
	type row struct {
		name  string
		mode  Mode
		probe Probe
	}
	var rows []row
	for _, mode := range confinedModes {
		rows = append(rows, row{string(mode), mode, Detect()})
	}
	if p := Detect(); p.LandlockABI > 5 {
		p.LandlockABI = 5
		rows = append(rows, row{"landlock, ABI 5", ModeLandlock, p})
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			requireLayers(t, tc.mode)
			r := newRig(t)
			pid := r.victim()
			if out, code := r.runProbed(tc.probe, r.policy(tc.mode), nil, "read", "/proc/"+strconv.Itoa(pid)+"/environ"); code == 0 {
				t.Errorf("read another process's environ: %s", out)
			}
			for _, op := range reachOps {
				if !alive(pid) {
					pid = r.victim()
				}
				group := pid
				if op == "kill-group" {
					group = r.victimGroup()
				}
				if out, code := r.runProbed(tc.probe, r.policy(tc.mode), nil, op, strconv.Itoa(group)); code == 0 {
					t.Errorf("%s on a process outside the sandbox: %s", op, out)
				}
				if !alive(pid) || !alive(group) {
					t.Errorf("%s: the process outside the sandbox died", op)
				}
				out, code := r.runProbed(tc.probe, r.policy(tc.mode), nil, "own", op)
				if want := op != "pidfd-kill" || !tc.probe.Status(tc.mode).supervised(); (code == 0) != want {
					t.Errorf("%s on the command's own child: %s (exit %d), want success %v", op, strings.TrimSpace(out), code, want)
				}
			}
		})
	}
}

// TestPromiseNestedSupervision: agentls's launcher run again inside a
// command under Landlock alone (agentls's own tests run by the agent) has
// no listener of its own (the kernel allows one), and the outer reaper's
// watch still holds: the nested command reaches its own child and not a
// process outside.
func TestPromiseNestedSupervision(t *testing.T) {
	requireLayers(t, ModeLandlock)
	r := newRig(t)
	inner, err := spec{Landlock: true, Supervised: true, NoUnixSockets: true, Writable: []string{"/"}}.encode()
	must(t, err)
	pid := r.victim()
	for _, c := range []struct {
		op   []string
		want bool
	}{
		{[]string{"own", "kill"}, true},
		{[]string{"kill", strconv.Itoa(pid)}, false},
		{[]string{"prlimit", strconv.Itoa(pid)}, false},
	} {
		argv := append([]string{r.bin, Subcommand, reapFlag, "--policy", inner, "--", r.bin, helperArg}, c.op...)
		cmd, prep, err := Command(r.policy(ModeLandlock), r.bin, argv, r.environ)
		must(t, err)
		out, err := cmd.CombinedOutput()
		prep.Cleanup()
		if (err == nil) != c.want {
			t.Errorf("nested %v: %v %s, want success %v", c.op, err, out, c.want)
		}
	}
	if !alive(pid) {
		t.Error("the process outside the sandbox died")
	}
}

// TestPromiseNoKeyring: a confined command reads no key of the kernel's
// keyrings its user's agentls possesses (its session keyring, which
// setsid keeps and bwrap's user namespace does not replace; the user
// keyring): Kerberos tickets (KEYRING: caches, Fedora's default), an
// ecryptfs passphrase. With the sandbox off it does. The stand-in for
// agentls runs as the rig's user with a session keyring of its own.
func TestPromiseNoKeyring(t *testing.T) {
	for _, mode := range append(slices.Clone(confinedModes), ModeOff) {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			name := fmt.Sprintf("agentls-promise-%d-%s", os.Getpid(), mode)
			cmd := exec.Command(r.bin, helperArg, "with-key", string(mode), r.ws, name)
			cmd.Env = r.environ
			setUser(cmd, r.runAs)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("with-key: %v: %s", err, out)
			}
			if read := strings.Contains(string(out), `command: read "hunter2"`); read != (mode == ModeOff) {
				t.Errorf("the command read the key: %v, want %v: %s", read, mode == ModeOff, out)
			}
		})
	}
}

// TestPromiseNoNewPrivileges: every confined command runs with
// no_new_privs, so a set-user-id or set-group-id program (at, sudo) gets
// no rights from its mode bits.
func TestPromiseNoNewPrivileges(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			if out, code := r.run(r.policy(mode), nil, "nnp"); code != 0 {
				t.Errorf("no_new_privs: %s", out)
			}
		})
	}
}

// TestPromiseNoSharedMemoryOutside: a confined command cannot attach a
// System V shared memory segment of a process outside the sandbox (X11's
// MIT-SHM segments hold the pixels of the user's windows), though its
// user may: bubblewrap's IPC namespace, the reaper's watch under Landlock
// alone. With the sandbox off it can. A segment the command makes works
// across its processes.
func TestPromiseNoSharedMemoryOutside(t *testing.T) {
	key := 0x61670000 | os.Getpid()&0xffff
	id, err := unix.SysvShmGet(key, 4096, unix.IPC_CREAT|unix.IPC_EXCL|0o666)
	if err != nil {
		t.Skipf("no System V shared memory here: %v", err)
	}
	t.Cleanup(func() { unix.SysvShmCtl(id, unix.IPC_RMID, nil) })
	mem, err := unix.SysvShmAttach(id, 0, 0)
	must(t, err)
	copy(mem, "hunter2")
	t.Cleanup(func() { unix.SysvShmDetach(mem) })
	for _, mode := range append(slices.Clone(confinedModes), ModeOff) {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			out, code := r.run(r.policy(mode), nil, "shm", strconv.Itoa(key))
			if read := code == 0 && strings.Contains(out, "hunter2"); read != (mode == ModeOff) {
				t.Errorf("read the segment: %v (%s), want %v", read, strings.TrimSpace(out), mode == ModeOff)
			}
			if out, code := r.run(r.policy(mode), nil, "own-shm"); code != 0 {
				t.Errorf("a segment of the command's own: %s", out)
			}
		})
	}
}

// victimGroup is a victim leading a process group of its own.
func (r *rig) victimGroup() int {
	r.t.Helper()
	return r.startVictim(&syscall.SysProcAttr{Setpgid: true})
}

// listen is a TCP listener outside the sandbox.
func listen(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return l.Addr().String()
}

// TestPromiseNetwork: with bwrap a command has a network of its own: the
// host's 127.0.0.1 is out of reach, its own loopback works; Policy.Network
// gives it the host's network back. Under Landlock alone (no namespace)
// the socket filter refuses IP sockets: nothing outside, and no loopback
// of its own either (the cost, said in the status); Policy.Network gives
// the network back there too. Before, a command under Landlock alone
// reached every listener of the machine and the internet.
func TestPromiseNetwork(t *testing.T) {
	for _, c := range []struct {
		mode     Mode
		loopback bool
	}{{ModeAuto, true}, {ModeBwrap, true}, {ModeLandlock, false}} {
		t.Run(string(c.mode), func(t *testing.T) {
			st := requireLayers(t, c.mode)
			if !st.Network {
				t.Fatalf("status says commands have the network: %+v", st)
			}
			r := newRig(t)
			addr := listen(t)
			pol := r.policy(c.mode)
			if out, code := r.run(pol, nil, "connect", addr); code == 0 {
				t.Errorf("reached a listener outside the sandbox: %s", out)
			}
			if out, code := r.run(pol, nil, "loopback"); (code == 0) != c.loopback {
				t.Errorf("loopback inside the sandbox: exit %d, want it to work: %v: %s", code, c.loopback, out)
			}
			pol.Network = true
			if out, code := r.run(pol, nil, "connect", addr); code != 0 {
				t.Errorf("with Network the listener is out of reach: %s", out)
			}
			if out, code := r.run(pol, nil, "loopback"); code != 0 {
				t.Errorf("with Network, loopback: %s", out)
			}
		})
	}
}

// TestPromiseNoForeignSockets: in every confined mode a command opens no
// socket of a family that leaves the machine or reaches its hypervisor and
// that no network namespace holds — vsock (a VM's host: WSL's, a cloud
// VM's agent), packet — while the families it needs still open (the
// network given, where Landlock alone would refuse IP otherwise). Before,
// a command opened a vsock socket in every mode, bubblewrap's too.
func TestPromiseNoForeignSockets(t *testing.T) {
	native := filterABIs[runtime.GOARCH][0]
	socket := func(family, typ int) []string {
		return []string{"syscall", fmt.Sprint(native.socket), fmt.Sprint(family), fmt.Sprint(typ)}
	}
	for _, mode := range confinedModes {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			pol := r.policy(mode)
			pol.Network = mode == ModeLandlock // IP there; bubblewrap's own network elsewhere
			for _, c := range []struct {
				name    string
				op      []string
				refused bool
			}{
				{"vsock", socket(unix.AF_VSOCK, unix.SOCK_STREAM), true},
				{"vsock, datagrams", socket(unix.AF_VSOCK, unix.SOCK_DGRAM), true},
				{"packet", socket(unix.AF_PACKET, unix.SOCK_RAW), true},
				{"IPv4", socket(unix.AF_INET, unix.SOCK_STREAM), false},
				{"IPv6", socket(unix.AF_INET6, unix.SOCK_DGRAM), false},
				{"netlink", socket(unix.AF_NETLINK, unix.SOCK_RAW), false},
			} {
				out, code := r.run(pol, nil, c.op...)
				if refused := code != 0 && strings.Contains(out, "permission denied"); refused != c.refused {
					t.Errorf("%s: exit %d, %q; want refused: %v", c.name, code, out, c.refused)
				}
			}
		})
	}
}

// sockets listens on a named unix socket outside the rig's workspace (a
// Docker daemon's) and on one inside it, each open to every user (the
// command's user may connect, but for the sandbox).
func (r *rig) sockets() (outside, inside string) {
	r.t.Helper()
	outside = filepath.Join(r.outside, "docker.sock")
	inside = filepath.Join(r.ws, "src", "dev.sock")
	for _, p := range []string{outside, inside} {
		l, err := net.Listen("unix", p)
		must(r.t, err)
		r.t.Cleanup(func() { l.Close() })
		must(r.t, os.Chmod(p, 0o777))
	}
	return outside, inside
}

// TestPromiseNoSocketsOutside: a listening named unix socket outside the
// sandbox (a Docker daemon's, tmux's, a Neovim server's), which the user
// running the command could reach, refuses its connect under bubblewrap;
// one in the workspace still answers. Before, the read-only mount let the
// connect through.
func TestPromiseNoSocketsOutside(t *testing.T) {
	for _, mode := range []Mode{ModeAuto, ModeBwrap} {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			outside, inside := r.sockets()
			pol := r.policy(mode)
			if out, code := r.run(pol, nil, "connect-unix", outside); code == 0 {
				t.Errorf("connected to %s outside the sandbox: %s", outside, out)
			}
			if out, code := r.run(pol, nil, "connect-unix", inside); code != 0 {
				t.Errorf("a socket in the workspace is out of reach: %s", out)
			}
		})
	}
}

// escape runs the escape op and returns the escaped grandchild's pid and
// the pipe it holds.
func (r *rig) escape(pol Policy) (pid int, held *os.File) {
	r.t.Helper()
	pr, pw, err := os.Pipe()
	must(r.t, err)
	r.t.Cleanup(func() { pr.Close() })
	out, code := r.run(pol, []*os.File{pw}, "escape")
	pw.Close()
	if code != 0 {
		r.t.Fatalf("escape: %s", out)
	}
	line, err := bufio.NewReader(pr).ReadString('\n')
	must(r.t, err)
	pid, err = strconv.Atoi(strings.TrimSpace(line))
	must(r.t, err)
	return pid, pr
}

// TestPromiseNoSetsidEscape: a process that left the command's session
// and group dies with the command, in every mode: bwrap's PID namespace,
// and elsewhere the launcher as the command's child subreaper (Landlock
// alone, and the sandbox off). Fails for landlock and off on 5a68df6,
// where the launcher exec'd the command and nothing reaped.
func TestPromiseNoSetsidEscape(t *testing.T) {
	for _, mode := range []Mode{ModeAuto, ModeBwrap, ModeLandlock, ModeOff} {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			_, held := r.escape(r.policy(mode))
			// EOF once every holder of the pipe is gone: the grandchild too.
			must(t, held.SetReadDeadline(time.Now().Add(10*time.Second)))
			if _, err := io.Copy(io.Discard, held); err != nil {
				t.Fatalf("the escaped grandchild outlived the command: %v", err)
			}
		})
	}
}

// TestPromiseEnvironment: a private TMPDIR (removed after), the caches
// in the workspace's cache folder, no agent or bus sockets.
func TestPromiseEnvironment(t *testing.T) {
	requireLayers(t, ModeLandlock)
	r := newRig(t)
	pol := r.policy(ModeAuto)
	prep, err := Prepare(pol, r.bin, []string{"true"})
	must(t, err)
	tmp := prep.TempDir
	if fi, err := os.Stat(tmp); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("private TMPDIR %s: %v %v", tmp, fi, err)
	}
	prep.Cleanup()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("TMPDIR %s left behind: %v", tmp, err)
	}
	out, code := r.run(pol, nil, "env")
	if code != 0 {
		t.Fatalf("env: %s", out)
	}
	for _, want := range []string{
		`SSH_AUTH_SOCK="" false`, `GPG_AGENT_INFO="" false`, `DBUS_SESSION_BUS_ADDRESS="" false`,
		`GOCACHE="` + r.cache + `/go-build" true`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("env lacks %s:\n%s", want, out)
		}
	}
	root, err := privateTempRoot()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `TMPDIR="`+root+`/agentls-run-`) || !strings.Contains(out, "GOTMPDIR=\""+root+"/agentls-run-") {
		t.Errorf("no private TMPDIR:\n%s", out)
	}
}

// TestModeOffChangesEverything: with sandbox.mode off the same commands
// run unconfined and succeed; the status says every command is asked. (A
// setsid grandchild still dies with the command: the reaper is no
// confinement, TestPromiseNoSetsidEscape.)
func TestModeOffChangesEverything(t *testing.T) {
	r := newRig(t)
	pol := r.policy(ModeOff)
	st := Detect().Status(ModeOff)
	if st.Confines() || !strings.Contains(st.Summary, "every command is asked") {
		t.Errorf("status of mode off: %+v", st)
	}
	pid := r.victim()
	addr := listen(t)
	for _, op := range [][]string{
		{"write", r.outside + "/x"}, {"write", r.ws + "/.agentls/session.chat"}, {"write", r.ws + "/.git/config"},
		{"read", r.home + "/.ssh/id_ed25519"}, {"read", r.state + "/trust/x.json"},
		{"read", "/proc/" + strconv.Itoa(pid) + "/environ"}, {"connect", addr},
	} {
		if out, code := r.run(pol, nil, op...); code != 0 {
			t.Errorf("%v with mode off: %s", op, out)
		}
	}
	if out, _ := r.run(pol, nil, "env"); !strings.Contains(out, `SSH_AUTH_SOCK="/tmp/agent.sock" true`) {
		t.Errorf("mode off changed the environment:\n%s", out)
	}
	if out, code := r.run(pol, nil, "kill", strconv.Itoa(pid)); code != 0 {
		t.Errorf("kill with mode off: %s", out)
	}
}

func mustExe(t *testing.T) string {
	exe, err := os.Executable()
	must(t, err)
	return exe
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	must(t, err)
	must(t, os.WriteFile(to, b, 0o755))
}

// TestPromiseNestedLauncherNarrowsOnly: a confined command that starts the
// launcher again with a policy that lets it write everywhere still cannot
// write outside the workspace (Landlock domains stack; namespaces nest).
func TestPromiseNestedLauncherNarrowsOnly(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			wide, err := spec{Landlock: true, Writable: []string{"/"}}.encode()
			must(t, err)
			cmd, prep, err := Command(r.policy(mode), r.bin,
				[]string{r.bin, Subcommand, "--policy", wide, "--", r.bin, helperArg, "write", r.outside + "/x"}, r.environ)
			must(t, err)
			defer prep.Cleanup()
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Errorf("the nested launcher widened the sandbox: %s", out)
			} else if !strings.Contains(string(out), "permission denied") && !strings.Contains(string(out), "read-only file system") {
				t.Errorf("refused other than by the sandbox: %v %s", err, out)
			}
		})
	}
}

// TestPromiseNoUnixSocketsUnderLandlockAlone: where bubblewrap cannot
// cover the sockets outside, the launcher's seccomp filter refuses every
// socket(AF_UNIX): the Docker daemon's socket outside, an abstract one, and
// (the cost, said in the status) one in the workspace; socketpair and the
// other system calls work. Without the network it refuses every family
// that leaves the kernel (IP, vsock, packet…: TestPromiseNetwork), with it
// (Policy.Network) only unix sockets. io_uring, which could open a socket
// without a system call the filter sees, is refused. Before, the connect
// outside succeeded.
func TestPromiseNoUnixSocketsUnderLandlockAlone(t *testing.T) {
	st := requireLayers(t, ModeLandlock)
	if !strings.Contains(st.Summary, "no unix sockets") {
		t.Errorf("the status does not say so: %q", st.Summary)
	}
	r := newRig(t)
	outside, inside := r.sockets()
	abstract, err := net.Listen("unix", "@agentls-test-"+strconv.Itoa(os.Getpid()))
	must(t, err)
	t.Cleanup(func() { abstract.Close() })
	native := filterABIs[runtime.GOARCH][0]
	tcp := listen(t)
	socket := func(family int, typ ...int) []string {
		op := []string{"syscall", fmt.Sprint(native.socket), fmt.Sprint(family)}
		for _, t := range typ {
			op = append(op, fmt.Sprint(t))
		}
		return op
	}
	for _, c := range []struct {
		name    string
		network bool
		op      []string
		want    string // "ok", "not refused" (the kernel may lack the family), or what the error says
	}{
		{"a socket outside", false, []string{"connect-unix", outside}, "permission denied"},
		{"a socket outside, with the network", true, []string{"connect-unix", outside}, "permission denied"},
		{"a socket in the workspace", false, []string{"connect-unix", inside}, "permission denied"},
		{"an abstract socket", true, []string{"connect-unix", abstract.Addr().String()}, "permission denied"},
		{"socket(AF_UNIX) with high bits above the family", true, []string{"syscall", fmt.Sprint(native.socket), "0x100000001"}, "permission denied"},
		{"io_uring_setup", false, []string{"syscall", fmt.Sprint(native.ioUring), "1"}, "function not implemented"},
		{"io_uring_setup, with the network", true, []string{"syscall", fmt.Sprint(native.ioUring), "1"}, "function not implemented"},
		{"socketpair", false, []string{"socketpair"}, "ok"},
		{"netlink (routes, addresses)", false, socket(unix.AF_NETLINK, unix.SOCK_RAW), "not refused"},
		{"AF_ALG (the kernel's ciphers)", false, socket(unix.AF_ALG, unix.SOCK_SEQPACKET), "not refused"},
		{"socket(AF_INET)", false, socket(unix.AF_INET), "permission denied"},
		{"socket(AF_INET6)", false, socket(unix.AF_INET6), "permission denied"},
		{"socket(AF_INET) with high bits above the family", false, []string{"syscall", fmt.Sprint(native.socket), "0x100000002"}, "permission denied"},
		{"vsock (a hypervisor's services)", false, socket(unix.AF_VSOCK), "permission denied"},
		{"packet", false, socket(unix.AF_PACKET), "permission denied"},
		{"TCP outside", false, []string{"connect", tcp}, "permission denied"},
		{"socket(AF_INET), with the network", true, socket(unix.AF_INET), "ok"},
		{"TCP outside, with the network", true, []string{"connect", tcp}, "ok"},
		{"loopback TCP, with the network", true, []string{"loopback"}, "ok"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pol := r.policy(ModeLandlock)
			pol.Network = c.network
			out, code := r.run(pol, nil, c.op...)
			if c.want == "not refused" {
				if code != 0 && strings.Contains(out, "permission denied") {
					t.Errorf("%v: refused: %s", c.op, out)
				}
				return
			}
			if c.want == "ok" {
				if code != 0 {
					t.Errorf("%v: %s", c.op, out)
				}
				return
			}
			if code == 0 || !strings.Contains(out, c.want) {
				t.Errorf("%v: exit %d, %q; want an error saying %q", c.op, code, out, c.want)
			}
		})
	}
}

// TestPromiseNoControllingTerminal: where agentls has a controlling
// terminal (started from a terminal editor that does not detach it, or
// `agentls demo`), a command — confined or not — gets none, so it cannot
// push input into it (TIOCSTI: keys typed into the user's shell, outside
// any sandbox) nor read what the user types. The control: the process
// standing for agentls can. Before, the command shared agentls's session
// and injected in every mode.
func TestPromiseNoControllingTerminal(t *testing.T) {
	for _, mode := range []Mode{ModeAuto, ModeBwrap, ModeLandlock, ModeOff} {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			master, slave := openPty(t)
			defer master.Close()
			uid := ""
			if r.runAs != nil {
				uid = strconv.Itoa(int(r.runAs.UID))
			}
			cmd := exec.Command(r.bin, helperArg, "on-tty", string(mode), r.ws, uid)
			cmd.Stdin = slave
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			out, err := cmd.Output()
			slave.Close()
			if err != nil {
				t.Fatalf("on-tty: %v: %s", err, out)
			}
			if !strings.Contains(string(out), "control: ok exit 0") {
				t.Fatalf("the stand-in for agentls has no controlling terminal, the test proves nothing: %s", out)
			}
			if !strings.Contains(string(out), "command: err:") {
				t.Errorf("the command pushed input into agentls's terminal: %s", out)
			}
		})
	}
}

// openPty opens a new pseudo-terminal: its master, and its slave without
// making it this process's controlling terminal.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// TestPromiseDevices: a command cannot open the user's terminals (what
// the user types there), in any confining mode: bwrap's /dev has its own
// pseudo-terminals, and under Landlock alone only the listed devices of
// the host's /dev are open to it. The common devices work. Under
// Landlock alone the pseudo-terminal opened before this check.
func TestPromiseDevices(t *testing.T) {
	master, slave := openPty(t)
	defer master.Close()
	defer slave.Close()
	shm := "/dev/shm/agentls-test-" + strconv.Itoa(os.Getpid())
	t.Cleanup(func() { os.Remove(shm) })
	for _, mode := range []Mode{ModeAuto, ModeBwrap, ModeLandlock} {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			must(t, os.Chmod(slave.Name(), 0o666)) // the command's user may open it, but for the sandbox
			for _, c := range []struct {
				op   []string
				want bool
			}{
				{[]string{"open-read", slave.Name()}, false},
				{[]string{"open-read", "/dev/urandom"}, true},
				{[]string{"write", "/dev/null"}, true},
				{[]string{"write", shm}, true},
				{[]string{"list", "/dev"}, true},
			} {
				out, code := r.run(r.policy(mode), nil, c.op...)
				if (code == 0) != c.want {
					t.Errorf("%v: exit %d, %s (want success %v)", c.op, code, out, c.want)
				}
			}
			os.Remove(shm)
		})
	}
}

// TestPromiseWorkspaceInSharedMemory: under Landlock alone /dev is closed
// but for the listed devices and /dev/shm, which stays writable; a
// workspace kept there still has its read-only paths (.git, .agentls)
// and its secrets' denial. Before, /dev/shm was granted whole, over them.
// (Under bwrap a workspace there is out of sight: bwrap's /dev is fresh.)
func TestPromiseWorkspaceInSharedMemory(t *testing.T) {
	requireLayers(t, ModeLandlock)
	if fi, err := os.Stat(landlockShm); err != nil || !fi.IsDir() {
		t.Skipf("no %s here", landlockShm)
	}
	r := newRigIn(t, landlockShm)
	secret := filepath.Join(r.ws, "keys", "secret.txt")
	must(t, os.MkdirAll(filepath.Dir(secret), 0o755))
	must(t, os.WriteFile(secret, []byte("secret\n"), 0o644))
	if r.runAs != nil {
		must(t, os.Chown(secret, int(r.runAs.UID), int(r.runAs.GID)))
	}
	pol := r.policy(ModeLandlock)
	pol.DenyRead = append(pol.DenyRead, secret)
	for _, c := range []struct {
		op   []string
		want bool
	}{
		{[]string{"write", filepath.Join(r.ws, "src", "a.go")}, true},
		{[]string{"read", filepath.Join(r.ws, "go.mod")}, true},
		{[]string{"read", filepath.Join(r.ws, ".git", "config")}, true},
		{[]string{"write", filepath.Join(r.ws, ".git", "config")}, false},
		{[]string{"write", filepath.Join(r.ws, ".agentls", "session.chat")}, false},
		{[]string{"read", secret}, false},
		{[]string{"write", filepath.Join(r.outside, "shared")}, true}, // elsewhere in /dev/shm
	} {
		out, code := r.run(pol, nil, c.op...)
		if (code == 0) != c.want {
			t.Errorf("%v: exit %d, %s (want success %v)", c.op, code, out, c.want)
		}
	}
}

// TestPromiseNoUnixSocketsWithNetworkBeforeScoping: a command given the
// network under bubblewrap shares the host's network namespace, where
// abstract unix sockets live (an X server's @/tmp/.X11-unix/X0, D-Bus's);
// Landlock scopes them only from ABI 6. On a machine with bubblewrap and
// an older Landlock (or none), such a command gets the unix socket
// filter, so a socket in the workspace is refused too; without the
// network, or with scoping, it is not. This kernel scopes, so the probe
// says what an older one would; a socket in the workspace (which only the
// filter refuses) tells the filter is on.
func TestPromiseNoUnixSocketsWithNetworkBeforeScoping(t *testing.T) {
	requireLayers(t, ModeAuto)
	r := newRig(t)
	_, inside := r.sockets()
	for _, c := range []struct {
		name     string
		abi      int
		mode     Mode
		network  bool
		want     bool // the connect succeeds
		filtered bool // the note says so
	}{
		{"Landlock ABI 5 and bwrap, network", 5, ModeAuto, true, false, true},
		{"bwrap alone, network", 0, ModeBwrap, true, false, true},
		{"Landlock ABI 5 and bwrap, no network", 5, ModeAuto, false, true, false},
		{"Landlock ABI 7 and bwrap, network", 7, ModeAuto, true, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			probe := Detect()
			probe.LandlockABI = c.abi
			if c.abi == 0 {
				probe.LandlockErr = "none (the test says so)"
			}
			pol := r.policy(c.mode)
			pol.Network = c.network
			out, code := r.runProbed(probe, pol, nil, "connect-unix", inside)
			if (code == 0) != c.want {
				t.Errorf("connect to %s: exit %d, %s (want success %v)", inside, code, out, c.want)
			}
			if note := probe.Status(c.mode).Note(c.network); strings.Contains(note, "no unix sockets") != c.filtered {
				t.Errorf("note %q", note)
			}
		})
	}
}
