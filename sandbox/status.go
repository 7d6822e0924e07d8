package sandbox

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Status is what the sandbox can enforce here, for the configured mode
// (agent/checkModel's `sandbox`, :checkhealth, the VS Code tooltip).
type Status struct {
	// Mode is the layers commands run under: "landlock+bwrap",
	// "landlock", "bwrap", "none" (no layer usable) or "off" (configured).
	Mode string `json:"mode"`
	// Landlock is "ABI <n>" or why Landlock is not used.
	Landlock string `json:"landlock"`
	// Bwrap is "ok" or why bubblewrap is not used.
	Bwrap string `json:"bwrap"`
	// Network is true when commands get no network unless run.network
	// allows it: a network namespace of their own with bubblewrap (its
	// own loopback), the socket filter under Landlock alone (no IP socket
	// at all: networkOff). Every confining mode does (Confines), so the
	// questions ask Confines; the field tells the editors.
	Network bool `json:"network"`
	// Summary says it in one line.
	Summary string `json:"summary"`
	// scoped is true when Landlock applies and scopes abstract unix
	// sockets (ABI ≥ 6).
	scoped bool
}

// unixSocketsOff reports whether a command under s, with the network or
// not, gets the filter that refuses every unix socket
// (socketfilter_linux.go): under Landlock alone (nothing covers the
// named sockets outside), and under bubblewrap with the network where
// Landlock does not scope abstract sockets (the host's network namespace:
// an X server's or D-Bus's abstract socket in reach).
func (s Status) unixSocketsOff(network bool) bool {
	return s.supervised() || s.bwrapOn() && network && !s.scoped
}

// networkOff reports whether a command under s without the network
// gets the socket filter's network clause (socketfilter_linux.go): under
// Landlock alone, where no network namespace of its own keeps it from the
// internet and this machine's loopback.
func (s Status) networkOff(network bool) bool { return s.supervised() && !network }

// NoLoopback reports whether a command under s without the network has
// no loopback of its own either (Landlock alone: networkOff refuses every
// IP socket; bubblewrap's network namespace has its own loopback).
func (s Status) NoLoopback() bool { return s.supervised() }

// supervised reports whether a command under s gets the reaper's watch
// over the system calls that reach another process by its pid
// (processfilter_linux.go): under Landlock alone, where no PID namespace
// hides the user's other processes (and no bubblewrap covers the unix
// sockets outside: unixSocketsOff).
func (s Status) supervised() bool { return s.landlockOn() && !s.bwrapOn() }

// landlockAloneNote is what the status and each command's note say of
// Landlock alone: no bubblewrap, so the socket filter refuses unix
// sockets and, without run.network, the network, loopback included.
const landlockAloneNote = "no unix sockets, network off (no loopback either: install bubblewrap for one)"

// Confines reports whether commands run under at least one layer; when
// they do not, every command must be asked.
func (s Status) Confines() bool { return s.Mode != "none" && s.Mode != "off" && s.Mode != "" }

// landlockOn and bwrapOn tell which layers s uses.
func (s Status) landlockOn() bool { return strings.Contains(s.Mode, "landlock") }
func (s Status) bwrapOn() bool    { return strings.Contains(s.Mode, "bwrap") }

// Note is the one line a command's result carries about its sandbox:
// the layers, where it could write, and its network.
func (s Status) Note(network bool) string {
	if !s.Confines() {
		return s.Summary
	}
	n := "network off"
	switch {
	case network && s.unixSocketsOff(network):
		n = "network on (run.network), no unix sockets"
	case network:
		n = "network on (run.network)"
	case s.networkOff(network):
		n = landlockAloneNote
	}
	return s.Mode + ": writes only in the workspace (not .agentls/, repositories' hooks and config, editors' auto-run files, nor .git when auto-allowed) and a private TMPDIR; secrets unreadable; " + n
}

// Probe is what this machine offers, found once (Detect).
type Probe struct {
	// LandlockABI is the kernel's Landlock ABI version; 0 when none, with
	// LandlockErr saying why.
	LandlockABI int
	LandlockErr string
	// BwrapErr is "" when `bwrap` ran a command in fresh PID and network
	// namespaces, else why not.
	BwrapErr string
	// BwrapPath is the bwrap executable found on PATH.
	BwrapPath string
}

var (
	detectOnce sync.Once
	detected   Probe
)

// Detect probes both layers the first time it is called (a system call
// for Landlock's ABI, one `bwrap … true` run) and returns the result.
func Detect() Probe {
	detectOnce.Do(func() {
		detected.LandlockABI, detected.LandlockErr = landlockABI()
		detected.BwrapPath, detected.BwrapErr = probeBwrap()
		st := detected.Status(ModeAuto)
		slog.Info("sandbox probed", "landlock", st.Landlock, "bwrap", st.Bwrap, "auto", st.Mode)
	})
	return detected
}

// bwrapProbeTimeout bounds the bwrap probe.
const bwrapProbeTimeout = 10 * time.Second

// probeBwrap runs bwrap with the namespaces commands get.
func probeBwrap() (path, why string) {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return "", "not installed (install bubblewrap)"
	}
	ctx, cancel := context.WithTimeout(context.Background(), bwrapProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-net",
		"--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true")
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return path, "does not run here: " + msg
	}
	return path, ""
}

// Status is the sandbox that mode gets on this machine.
func (p Probe) Status(mode Mode) Status {
	st := Status{Landlock: "ABI " + fmt.Sprint(p.LandlockABI), Bwrap: "ok"}
	if p.LandlockABI == 0 {
		st.Landlock = "unavailable: " + p.LandlockErr
	} else if p.LandlockABI < 6 {
		st.Landlock += " (no signal and socket scoping before ABI 6)"
	}
	if p.BwrapErr != "" {
		st.Bwrap = p.BwrapErr
	}
	useLandlock := p.LandlockABI > 0 && (mode == ModeAuto || mode == ModeLandlock || mode == "")
	useBwrap := p.BwrapErr == "" && (mode == ModeAuto || mode == ModeBwrap || mode == "")
	switch {
	case mode == ModeOff:
		st.Mode = "off"
		st.Summary = "sandbox off (sandbox.mode: off): commands run unconfined, so every command is asked"
		return st
	case useLandlock && useBwrap:
		st.Mode = "landlock+bwrap"
	case useLandlock:
		st.Mode = "landlock"
	case useBwrap:
		st.Mode = "bwrap"
	default:
		st.Mode = "none"
		st.Summary = fmt.Sprintf("no sandbox (mode %s; landlock: %s; bwrap: %s): every command is asked", modeName(mode), st.Landlock, st.Bwrap)
		return st
	}
	st.Network = true
	st.scoped = useLandlock && p.LandlockABI >= 6
	net := "network off unless run.network allows it"
	if !useBwrap {
		net = landlockAloneNote
	}
	st.Summary = st.Mode + ": writes only in the workspace, secrets unreadable, " + net
	return st
}

// modeName is mode as configured ("" is auto).
func modeName(m Mode) string {
	if m == "" {
		return string(ModeAuto)
	}
	return string(m)
}
