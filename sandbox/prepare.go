package sandbox

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Subcommand is the launcher's argv[1]: `agentls sandbox-exec --policy
// <spec> -- <argv>`.
const Subcommand = "sandbox-exec"

// unsetVars are the variables no confined command gets: they lead to
// agents and buses outside the sandbox.
var unsetVars = []string{"SSH_AUTH_SOCK", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS"}

// Prepared is a command made ready to start confined.
type Prepared struct {
	// Argv is what to start: bwrap or the launcher around the command, or
	// the command itself when nothing confines it.
	Argv []string
	// Status is the sandbox the command gets.
	Status Status
	// Note is the one line its result carries (Status.Note).
	Note string
	// TempDir is the command's private TMPDIR ("" when unconfined).
	TempDir string
	// Reaps says Argv starts the launcher as the command's reaper (Linux,
	// every mode but bubblewrap's, whose PID namespace does this): when
	// the command ends it kills every process the command left behind,
	// also those that left its process group. End it with Terminate, not
	// a SIGKILL, so that it can; and let its parent-death signal be
	// ParentDeathSignal.
	Reaps bool
	// dog is the command's watchdog (WatchedCommand); nil without one.
	dog *watchdog
	// bwrap is what Start needs to learn whether bubblewrap set the
	// sandbox up, and to try once more (bwrap_start.go); nil without
	// bubblewrap.
	bwrap *bwrapStart
}

// Cleanup closes agentls's end of the command's watchdog (which then kills
// what is left in the command's group) and removes its private TMPDIR;
// call it once the command has ended. More than one call, and a nil p,
// do no harm.
func (p *Prepared) Cleanup() {
	if p == nil {
		return
	}
	p.stopWatchdog()
	if p.bwrap != nil {
		p.bwrap.messages.close()
	}
	if p.TempDir != "" {
		if err := os.RemoveAll(p.TempDir); err != nil {
			slog.Warn("sandbox: the command's TMPDIR stays behind", "dir", p.TempDir, "err", err)
		}
	}
}

// Prepare wraps argv in the layers pol.Mode gets on this machine
// (Detect). launcher is the agentls executable ("" is os.Executable()).
func Prepare(pol Policy, launcher string, argv []string) (*Prepared, error) {
	return prepareWith(Detect(), pol, launcher, argv)
}

// prepareWith is Prepare with a given probe.
func prepareWith(probe Probe, pol Policy, launcher string, argv []string) (*Prepared, error) {
	if len(argv) == 0 {
		return nil, errors.New("sandbox: no command")
	}
	st := probe.Status(pol.Mode)
	p := &Prepared{Argv: argv, Status: st, Note: st.Note(pol.Network)}
	if !st.Confines() {
		// Unconfined, the program is looked up here (exec.Command uses
		// agentls's PATH): never in a folder the agent writes.
		p.Argv = append([]string{lookUp(argv[0], resolveAll(pol.UntrustedPath))}, argv[1:]...)
		if reaperOn && filepath.IsAbs(p.Argv[0]) {
			// Nothing confines it, but the reaper still ends what it
			// leaves behind; a program not found fails to start as before.
			p.reapUnconfined(launcher, pol)
		}
		return p, nil
	}
	if launcher == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("sandbox: the agentls executable: %w", err)
		}
		launcher = exe
	}
	root, err := privateTempRoot()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(root, "agentls-run-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: private TMPDIR: %w", err)
	}
	p.TempDir = tmp
	ok := false
	defer func() {
		if !ok {
			p.Cleanup()
		}
	}()
	if err := chownFor(tmp, pol.RunAs); err != nil {
		return nil, err
	}
	uid := os.Getuid()
	if pol.RunAs != nil {
		uid = int(pol.RunAs.UID)
	}
	// The user's runtime folder (its sessions' sockets, podman's registry
	// logins): bwrap hides it under an empty tmpfs, Landlock alone denies it.
	runUser := "/run/user/" + strconv.Itoa(uid)
	deny := slices.Clone(pol.DenyRead)
	if !st.bwrapOn() {
		deny = append(deny, runUser)
	}
	s := spec{
		Landlock: st.landlockOn(), Bwrap: st.bwrapOn(), NoUnixSockets: st.unixSocketsOff(pol.Network),
		NoNetwork: st.networkOff(pol.Network), Sockets: true, NoKeyrings: true, LandlockABI: probe.LandlockABI, Supervised: st.supervised(),
		Writable: resolveAll(append(slices.Clone(pol.Writable), tmp)),
		ReadOnly: resolveAll(pol.readOnly(st.bwrapOn())),
		Fixed:    resolveAll(pol.Fixed),
		Deny:     resolveAll(deny),
		Set:      map[string]string{"TMPDIR": tmp, "GOTMPDIR": tmp, "TMP": tmp, "TEMP": tmp},
		Unset:    unsetVars,
		PathDeny: resolveAll(pol.UntrustedPath),
	}
	if pol.CacheDir != "" {
		cache, err := filepath.Abs(pol.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("sandbox: cache folder: %w", err)
		}
		if err := os.MkdirAll(cache, 0o700); err != nil {
			return nil, fmt.Errorf("sandbox: cache folder: %w", err)
		}
		if err := chownFor(cache, pol.RunAs); err != nil {
			return nil, err
		}
		s.Writable = resolveAll(append(s.Writable, cache))
		for k, sub := range map[string]string{
			"XDG_CACHE_HOME": "", "GOCACHE": "go-build", "npm_config_cache": "npm",
			"YARN_CACHE_FOLDER": "yarn", "PIP_CACHE_DIR": "pip",
		} {
			s.Set[k] = filepath.Join(cache, sub)
		}
	}
	enc, err := s.encode()
	if err != nil {
		return nil, err
	}
	inner := append([]string{launcher, Subcommand, "--policy", enc, "--"}, argv...)
	if !st.bwrapOn() {
		if reaperOn {
			inner = slices.Insert(inner, 2, reapFlag)
			p.Reaps = true
		}
		p.Argv = inner
		ok = true
		return p, nil
	}
	// The launcher says when bubblewrap has set the sandbox up (Start
	// fills the descriptors in; "-" is none: a client starts the command).
	inner = slices.Insert(inner, 2, startedFlag, noFD, stderrFlag, noFD)
	cover := func() ([]string, []string) {
		sockets := slices.DeleteFunc(liveSockets(os.Environ(), append(append(slices.Clone(s.Writable), s.Deny...), runUser)),
			func(sock string) bool { return !reachableBy(sock, pol.RunAs) })
		return bwrapArgs(probe.BwrapPath, s, pol.Network, uid, sockets), sockets
	}
	prefix, sockets := cover()
	p.Argv = append(prefix, inner...)
	p.bwrap = &bwrapStart{inner: len(inner), sockets: sockets, cover: cover}
	ok = true
	return p, nil
}

// reapUnconfined puts the reaper (and nothing else: no Landlock, no
// environment change, PATH as Environ leaves it) around p's command. Where
// the agentls executable cannot be found the command runs without it.
func (p *Prepared) reapUnconfined(launcher string, pol Policy) {
	if launcher == "" {
		exe, err := os.Executable()
		if err != nil {
			slog.Warn("sandbox: the agentls executable: the command runs without its reaper", "err", err)
			return
		}
		launcher = exe
	}
	enc, err := spec{PathDeny: resolveAll(pol.UntrustedPath)}.encode()
	if err != nil {
		slog.Warn("sandbox: the command runs without its reaper", "err", err)
		return
	}
	p.Argv = append([]string{launcher, Subcommand, reapFlag, "--policy", enc, "--"}, p.Argv...)
	p.Reaps = true
}

// Command is Prepare's argv as an exec.Cmd with environ as its
// environment (the launcher changes it further, and Environ keeps PATH out
// of the workspace), run as pol.RunAs, in a process group of its own
// (where there are process groups): end it with the Prepared's Terminate,
// and what it left behind with KillGroup.
func Command(pol Policy, launcher string, argv, environ []string) (*exec.Cmd, *Prepared, error) {
	return commandWith(Detect(), pol, launcher, argv, environ)
}

// commandWith is Command with a given probe.
func commandWith(probe Probe, pol Policy, launcher string, argv, environ []string) (*exec.Cmd, *Prepared, error) {
	p, err := prepareWith(probe, pol, launcher, argv)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(p.Argv[0], p.Argv[1:]...)
	cmd.Env = Environ(pol, environ)
	cmd.SysProcAttr = groupAttr()
	setUser(cmd, pol.RunAs)
	return cmd, p, nil
}

// bwrapArgs is the bwrap command line up to the launcher (started in a
// session of its own, so without a controlling terminal: groupAttr; not
// --new-session, whose setsid would take bwrap's child out of the process
// group KillGroup ends): fresh PID and IPC (System V objects and POSIX
// message queues: the user's other processes' shared memory) and, without
// network, network namespaces, the whole tree read-only, the
// writable folders bound writable, the read-only ones bound read-only
// again inside them, the denied ones and the user's runtime folder hidden,
// and /dev/null over each of sockets (outsideSockets).
func bwrapArgs(bwrap string, s spec, network bool, uid int, sockets []string) []string {
	a := []string{bwrap, "--die-with-parent", "--unshare-pid", "--unshare-ipc"}
	if !network {
		a = append(a, "--unshare-net")
	}
	a = append(a, "--ro-bind", "/", "/")
	for _, w := range s.Writable {
		if isDir(w) {
			a = append(a, "--bind", w, w)
		}
	}
	for _, d := range pinnedAncestors(s) {
		a = append(a, "--bind", d, d)
	}
	for _, f := range s.Fixed {
		a = append(a, fixedMounts(f, s)...)
	}
	for _, r := range s.ReadOnly {
		// Followed: a mount lands on a link's target, and a link that
		// leads nowhere would stop bwrap (resolveAll names the target).
		if existsFollow(r) && underAny(r, s.Writable) {
			a = append(a, "--ro-bind", r, r)
		}
	}
	hide := append(slices.Clone(s.Deny), "/run/user/"+strconv.Itoa(uid))
	for _, d := range hide {
		switch {
		case isDirFollow(d):
			a = append(a, "--tmpfs", d, "--remount-ro", d)
		case exists(d):
			a = append(a, "--ro-bind", "/dev/null", d)
		}
	}
	for _, sock := range sockets { // outsideSockets: a connect is refused
		a = append(a, "--ro-bind", "/dev/null", sock)
	}
	return append(a, "--proc", "/proc", "--dev", "/dev", "--")
}

// pinnedAncestors are the folders between a writable root and each path
// mounted read-only or hidden inside it, shallowest first. A mount follows
// its folder when a folder above it is renamed: a command could move
// vendor/dep away with its read-only .git and make a new vendor/dep whose
// .git/config nothing protects (core.fsmonitor then runs at the editor's
// next git status). Bound onto themselves they become mount points, which
// a command can neither rename nor remove (EBUSY), so each protected path
// stays where it is named. Landlock alone needs none of this: it gives the
// folders above a protected path no rights to move it.
func pinnedAncestors(s spec) []string {
	var mounted []string
	for _, r := range s.ReadOnly {
		if existsFollow(r) {
			mounted = append(mounted, r)
		}
	}
	for _, d := range s.Deny {
		if exists(d) {
			mounted = append(mounted, d)
		}
	}
	for _, f := range s.Fixed {
		if isDir(f) {
			mounted = append(mounted, f)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range mounted {
		for _, w := range s.Writable {
			if m == w || !within(m, w) || !isDir(w) {
				continue
			}
			for d := filepath.Dir(m); d != w && within(d, w) && !seen[d]; d = filepath.Dir(d) {
				if !isDir(d) || underAny(d, mounted) {
					// A link (the mount lands elsewhere), or inside a
					// mounted path: that one is pinned, and read-only
					// or hidden inside.
					break
				}
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return strings.Count(a, string(filepath.Separator)) - strings.Count(b, string(filepath.Separator))
	})
	return out
}

// fixedMounts are the mounts that keep folder f's own entries as they
// are (Policy.Fixed): f read-only, each folder and file in it (but a
// symbolic link, a read-only or a denied path) writable again. Each entry
// is then a mount point, which a command can neither remove nor rename.
func fixedMounts(f string, s spec) []string {
	if !isDir(f) || !underAny(f, s.Writable) {
		return nil
	}
	a := []string{"--ro-bind", f, f}
	entries, err := os.ReadDir(f)
	if err != nil {
		return a // fail closed: f read-only whole
	}
	for _, e := range entries {
		child := filepath.Join(f, e.Name())
		if e.Type()&os.ModeSymlink != 0 || slices.Contains(s.ReadOnly, child) || underAny(child, s.Deny) {
			continue
		}
		a = append(a, "--bind", child, child)
	}
	return a
}

// underAny reports whether path is inside one of dirs.
func underAny(path string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return within(path, d) })
}

func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

func isDirFollow(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func existsFollow(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
