package sandbox

import "time"

// reapFlag, right after the subcommand, makes the launcher the command's
// reaper (Exec, reaper_linux.go).
const reapFlag = "--reap"

// notifyFlag, in the reaper's launcher child (`--notify <fd> --policy …`),
// is the socket on which the launcher hands the process filter's listener
// to the reaper (watchProcessCalls).
const notifyFlag = "--notify"

// reapTimeout bounds how long the reaper kills and reaps what the command
// left behind (a process stuck in the kernel cannot be reaped); it then
// exits all the same.
const reapTimeout = 3 * time.Second

// TerminateGrace bounds how long Terminate waits for the reaper to end the
// command after SIGTERM before it kills the process group; it is longer
// than the reaper's own bound.
const TerminateGrace = reapTimeout + 2*time.Second

// exitStatus is a command's exit code as a shell reports it: a death by
// signal n is 128+n.
func exitStatus(signaled bool, signal, code int) int {
	if signaled {
		return 128 + signal
	}
	return code
}
