package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
)

// Main runs the launcher when this process was started as one
// (`<exe> sandbox-exec …`) and never returns then; otherwise it returns at
// once. Call it first in agentls's main and in the TestMain of every
// package whose tests start confined commands (their test binary is the
// launcher there).
func Main() {
	if len(os.Args) < 2 || os.Args[1] != Subcommand {
		return
	}
	err := Exec(os.Args[2:])
	fmt.Fprintf(os.Stderr, "agentls sandbox-exec: %v\n", err)
	os.Exit(LauncherFailed)
}

// LauncherFailed is the launcher's exit code when it could not confine or
// start the command (a shell's "cannot execute").
const LauncherFailed = 126

// ErrLauncher prefixes the launcher's own failures in the command's output.
var ErrLauncher = errors.New("agentls sandbox-exec")

// Exec is the launcher: args are `--policy <spec> -- <argv>`. It changes
// the environment, applies Landlock (when the spec says so), the filter
// that refuses the kernel's keyrings (keyringfilter_linux.go) and, under
// Landlock alone, the filter that refuses unix sockets
// (socketfilter_linux.go) and the one that hands the calls naming another
// process to the reaper (processfilter_linux.go; `--notify <fd>` first,
// from the reaper), and execs argv; it returns only on failure.
// Under bubblewrap `--started <fd> --stderr <fd>` come first: the
// launcher takes the command's error output as its own and says it runs
// (sayStarted, bwrap_start.go).
// With `--reap` first (Prepared.Reaps) it is the command's reaper instead
// (reaper_linux.go): it starts the launcher without `--reap` as its
// child, and when that child ends it kills every process the command left
// behind and exits with the child's status.
func Exec(args []string) error {
	if len(args) > 3 && args[0] == startedFlag && args[2] == stderrFlag {
		if err := sayStarted(args[1], args[3]); err != nil {
			return err
		}
		args = args[4:]
	}
	if len(args) > 0 && args[0] == reapFlag {
		return reap(args[1:])
	}
	notify := -1
	if len(args) > 1 && args[0] == notifyFlag {
		fd, err := strconv.Atoi(args[1])
		if err != nil || fd < 3 {
			return fmt.Errorf("%s %q: not a descriptor", notifyFlag, args[1])
		}
		notify, args = fd, args[2:]
	}
	if len(args) < 4 || args[0] != "--policy" || args[2] != "--" {
		return errors.New("usage: agentls sandbox-exec --policy <base64 JSON> -- <command> [args…]")
	}
	s, err := decodeSpec(args[1])
	if err != nil {
		return err
	}
	if s.Supervised && notify < 0 { // fail closed: no reaper to answer the filter
		return fmt.Errorf("the policy asks for the process filter, but no %s socket was given", notifyFlag)
	}
	argv := args[3:]
	for _, k := range s.Unset {
		os.Unsetenv(k)
	}
	for k, v := range s.Set {
		os.Setenv(k, v)
	}
	if p, ok := os.LookupEnv("PATH"); ok {
		os.Setenv("PATH", searchPath(p, s.PathDeny)) // never a folder the agent writes
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("%s: %w", argv[0], err)
	}
	if s.Landlock {
		if err := restrictSelf(s); err != nil {
			return err
		}
	}
	if needsTruncateFilter(s) {
		if err := denyTruncation(); err != nil {
			return err
		}
	}
	if needsXattrFilter(s) {
		if err := denyXattrChanges(); err != nil {
			return err
		}
	}
	if s.NoKeyrings {
		if err := denyKeyrings(); err != nil {
			return err
		}
	}
	if s.Sockets || s.NoUnixSockets || s.NoNetwork {
		if err := denySockets(s.NoUnixSockets, s.NoNetwork); err != nil {
			return err
		}
	}
	if s.Supervised {
		if err := watchProcessCalls(notify); err != nil {
			return err
		}
	} else if notify >= 0 {
		os.NewFile(uintptr(notify), "notify").Close()
	}
	return execve(path, slices.Clone(argv), os.Environ())
}

// sayStarted makes descriptor stderr (noFD: none) this process's error
// output and writes a byte on descriptor started (noFD: none): the
// sandbox is set up, the launcher runs (bwrap_start.go). A Start that no
// longer waits has closed its end; that write's error is no concern.
func sayStarted(started, stderr string) error {
	if stderr != noFD {
		fd, err := launcherFD(stderrFlag, stderr)
		if err != nil {
			return err
		}
		if err := dupOnto(fd, 2); err != nil {
			return fmt.Errorf("%s: %w", stderrFlag, err)
		}
		os.NewFile(uintptr(fd), "stderr").Close()
	}
	if started != noFD {
		fd, err := launcherFD(startedFlag, started)
		if err != nil {
			return err
		}
		f := os.NewFile(uintptr(fd), "started")
		_, _ = f.Write([]byte{1})
		f.Close()
	}
	return nil
}

// launcherFD is a descriptor argument of flag: 3 or more.
func launcherFD(flag, arg string) (int, error) {
	fd, err := strconv.Atoi(arg)
	if err != nil || fd < 3 {
		return 0, fmt.Errorf("%s %q: not a descriptor", flag, arg)
	}
	return fd, nil
}
