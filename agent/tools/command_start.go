package tools

import "context"

// CommandStarter is the part of an Env told that a command, or a mutating
// tool's call, starts now, the user's permission given: the session's
// checkpoints scan the workspace then (not before the question), so what
// the person changed while the question was open stays theirs.
type CommandStarter interface {
	CommandStarting(ctx context.Context)
}

// StartTeller is a Tool that may tell its Env's CommandStarter when its
// command starts (CommandStarting): TellsCommandStart reports whether it
// does, after any permission and right before the process or the call
// begins, telling nothing when the command does not start (rejected,
// refused, cancelled). The session then takes no scan of its own before
// running it.
type StartTeller interface {
	Tool
	TellsCommandStart() bool
}

// CommandStarting tells env, when it is a CommandStarter, that the command
// starts now.
func CommandStarting(ctx context.Context, env Env) {
	if c, ok := env.(CommandStarter); ok {
		c.CommandStarting(ctx)
	}
}
