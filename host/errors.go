package host

import (
	"context"
	"errors"

	"github.com/agentls/agentls/agent"
)

// ErrorKind is what went wrong with a request, independent of the protocol
// that carried it; each face maps kinds to its own error codes (the LSP face:
// JSON-RPC -32602, -32803, -32800, -32603).
type ErrorKind int

const (
	// KindInternal is a failure the user cannot fix by changing the request.
	KindInternal ErrorKind = iota
	// KindInvalidParams is a request the user can fix (bad mode, answers
	// that fail their schema, a missing field).
	KindInvalidParams
	// KindUnknownSession is a request naming a session the workspace does
	// not have (also an invalid request: faces without a code of their own
	// for it treat it as KindInvalidParams).
	KindUnknownSession
	// KindSessionBusy is a prompt or compaction for a session whose turn is
	// still running.
	KindSessionBusy
	// KindCancelled is a request whose context was cancelled.
	KindCancelled
)

// String names the kind (for logs).
func (k ErrorKind) String() string {
	switch k {
	case KindInvalidParams:
		return "invalid params"
	case KindUnknownSession:
		return "unknown session"
	case KindSessionBusy:
		return "session busy"
	case KindCancelled:
		return "cancelled"
	}
	return "internal"
}

// Classify maps an agent error to its kind and the message a person can act
// on. err must not be nil.
func Classify(err error) (ErrorKind, string) {
	var inv *agent.InvalidParamsError
	switch {
	case errors.As(err, &inv):
		if errors.Is(inv, agent.ErrUnknownSession) {
			return KindUnknownSession, inv.Msg
		}
		return KindInvalidParams, inv.Msg
	case errors.Is(err, agent.ErrBusy):
		return KindSessionBusy, "session busy"
	case errors.Is(err, context.Canceled):
		return KindCancelled, "request cancelled"
	}
	return KindInternal, err.Error()
}
