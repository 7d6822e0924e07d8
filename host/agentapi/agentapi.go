// Package agentapi serves, once for both faces, the agent/* methods of
// agentproto's table whose logic is the agent's alone: each is one typed
// handler over Services (the agent as these handlers call it), and the
// faces only carry it — the LSP face (server) serves the rows that name
// LSP or a command, the ACP face (acp) the rows that name ACP, as
// `_agentls/<name>`. The params are decoded here, alike on both faces
// (DecodeParams); a face gives (Face) its invalid-params error for a
// malformed payload (its -32602, in the user's terms), the agent that
// holds the session (the LSP face has one, the ACP face one a workspace)
// and its mapping of the agent's errors to its own codes through
// host.Classify: this package knows no JSON-RPC. Methods that do something
// of the face's own (the LSP face's current session, a command's messages
// for plain editors, ACP's session/* methods) stay in their face.
package agentapi

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
)

// Services is the agent as the face-neutral handlers call it, one small
// interface a concern (declared beside its handlers); *agent.Manager
// implements it, and each face's own services interface embeds it.
type Services interface {
	Sessions
	Turns
	Checkpoints
}

var _ Services = (*agent.Manager)(nil)

// Resolve is the agent that holds the session sessionID ("" when the
// params name none): the LSP face has one agent; the ACP face finds the
// workspace of a session opened on its connection. Its error is already
// the face's own.
type Resolve func(sessionID string) (Services, error)

// Face is how a face carries the handlers: its error for a malformed
// payload, the agent that holds a session, and its error for an error of
// the agent.
type Face struct {
	// Invalid is the face's invalid-params error (-32602) for params that
	// do not decode; reason says what is wrong in the user's terms.
	Invalid func(reason string) error
	// At is the agent that holds a session.
	At Resolve
	// Error is the face's error for an error of the agent: its codes, by
	// host.Classify.
	Error func(error) error
}

// Handler is one method of agentproto's table with its face-neutral
// handler.
type Handler struct {
	method agentproto.Method
	serve  func(ctx context.Context, f Face, params []byte) (any, error)
}

// Method is the handler's row of the table.
func (h Handler) Method() agentproto.Method { return h.method }

// Serve decodes the params (DecodeParams; a malformed payload is
// f.Invalid's error before the handler runs), finds the agent with f.At
// (by the params' sessionId) and runs the handler. An error of f.At comes
// back as it is (it is the face's own already); the agent's own errors
// come back through f.Error.
func (h Handler) Serve(ctx context.Context, f Face, params []byte) (any, error) {
	return h.serve(ctx, f, params)
}

// Handlers are the face-neutral handlers, in the order of their concerns.
func Handlers() []Handler {
	return slices.Concat(sessionHandlers, turnHandlers, checkpointHandlers)
}

// handle binds fn to the request r: fn gets r's params decoded and the
// agent that holds their session, and returns r's result type, so a
// handler cannot answer another shape than the table declares.
func handle[P, R any](r agentproto.Request[P, R], fn func(ctx context.Context, a Services, p P) (R, error)) Handler {
	session := sessionField(reflect.TypeFor[P]())
	return Handler{method: r.Method(), serve: func(ctx context.Context, f Face, params []byte) (any, error) {
		var p P
		if err := DecodeParams(params, &p); err != nil {
			return nil, f.Invalid(err.Error())
		}
		id := ""
		if session != nil {
			id = reflect.ValueOf(p).FieldByIndex(session).String()
		}
		a, err := f.At(id)
		if err != nil {
			return nil, err
		}
		res, err := fn(ctx, a, p)
		if err != nil {
			return nil, f.Error(err)
		}
		return res, nil
	}}
}

// sessionField is the index of the params' SessionID field (a string), or
// nil when they have none.
func sessionField(t reflect.Type) []int {
	if t.Kind() != reflect.Struct {
		return nil
	}
	f, ok := t.FieldByName("SessionID")
	if !ok {
		return nil
	}
	if f.Type.Kind() != reflect.String {
		panic(fmt.Sprintf("agentapi: %s.SessionID is a %s, not a string", t, f.Type))
	}
	return f.Index
}
