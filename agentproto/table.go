package agentproto

import (
	"reflect"
	"slices"
	"strings"
)

// Direction says who sends a method and whether it is answered.
type Direction string

// The directions of a method.
const (
	// ClientRequest is a request the editor (or ACP client) sends.
	ClientRequest Direction = "client→server"
	// ServerRequest is a request the server sends the editor.
	ServerRequest Direction = "server→client"
	// ServerNotification is a notification the server sends the editor.
	ServerNotification Direction = "notification"
)

// Face is a set of the ways a method is reached.
type Face uint8

// The faces.
const (
	// LSP: the method is served (or sent) on the LSP face under its Name.
	LSP Face = 1 << iota
	// ACP: the ACP face serves it as the extension method ACPName
	// (`_agentls/<name>`).
	ACP
	// Command: the LSP face serves workspace/executeCommand CommandName,
	// whose single argument is the method's params.
	Command
)

// Has tells whether f includes all of g.
func (f Face) Has(g Face) bool { return f&g == g }

// String lists the faces, "LSP, ACP, command".
func (f Face) String() string {
	var out []string
	for _, x := range []struct {
		f    Face
		name string
	}{{LSP, "LSP"}, {ACP, "ACP"}, {Command, "command"}} {
		if f.Has(x.f) {
			out = append(out, x.name)
		}
	}
	return strings.Join(out, ", ")
}

// Method is one row of the method table.
type Method struct {
	// Name is the method's name: `agent/<name>`, or for a command that is
	// no agent/* method, the command itself (`agentls.showPlan`).
	Name      string
	Direction Direction
	Faces     Face
	// Since is the protocol version that brought the method.
	Since int
	// Capability is the client capability that gates it ("" for none):
	// the server sends a server→client method only to clients that
	// declared it.
	Capability string
	// Command is the workspace/executeCommand command (Faces has Command).
	Command string
	// CommandShape says what the command's argument object holds, in the
	// user's terms (for its error messages).
	CommandShape string
	// CommandSession: the command's sessionId defaults to the
	// connection's current session.
	CommandSession bool
	// Doc says what the method does, in one line (docs/protocol.md's table).
	Doc string
	// Params and Result are the types of the params and the result (Result
	// is nil for a notification).
	Params, Result reflect.Type
}

// ACPName is the method's name on the ACP face: `_agentls/<name>` (an ACP
// extension method); "" when the ACP face does not serve it.
func (m Method) ACPName() string {
	if !m.Faces.Has(ACP) {
		return ""
	}
	return "_agentls/" + m.Short()
}

// Short is the method's name without its `agent/` or `agentls.` prefix
// (the key of the generated name tables).
func (m Method) Short() string {
	if s, ok := strings.CutPrefix(m.Name, "agent/"); ok {
		return s
	}
	return strings.TrimPrefix(m.Name, "agentls.")
}

// Request is a request method whose params are P and result R: the typed
// handle the faces register handlers with and lsptest calls with.
type Request[P, R any] struct{ m *Method }

// Method is the request's row of the table.
func (r Request[P, R]) Method() Method { return *r.m }

// Name is the request's name.
func (r Request[P, R]) Name() string { return r.m.Name }

// Notification is a notification whose params are P.
type Notification[P any] struct{ m *Method }

// Method is the notification's row of the table.
func (n Notification[P]) Method() Method { return *n.m }

// Name is the notification's name.
func (n Notification[P]) Name() string { return n.m.Name }

// table holds the rows in the order they are declared (methods.go).
var table []*Method

func request[P, R any](m Method) Request[P, R] {
	m.Params, m.Result = reflect.TypeFor[P](), reflect.TypeFor[R]()
	if m.Direction == "" {
		m.Direction = ClientRequest
	}
	table = append(table, &m)
	return Request[P, R]{&m}
}

func notification[P any](m Method) Notification[P] {
	m.Params, m.Direction = reflect.TypeFor[P](), ServerNotification
	table = append(table, &m)
	return Notification[P]{&m}
}

// Table is the method table, in the order of docs/protocol.md's table.
func Table() []Method {
	out := make([]Method, len(table))
	for i, m := range table {
		out[i] = *m
	}
	return out
}

// Lookup finds a method by its name.
func Lookup(name string) (Method, bool) {
	i := slices.IndexFunc(table, func(m *Method) bool { return m.Name == name })
	if i < 0 {
		return Method{}, false
	}
	return *table[i], true
}

// Null is the result of a method that answers `null`.
type Null struct{}

// MarshalJSON writes null.
func (Null) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// UnmarshalJSON accepts any value.
func (*Null) UnmarshalJSON([]byte) error { return nil }

// Empty is the params of a method that takes none: `{}`; whatever is sent
// is ignored.
type Empty struct{}

// UnmarshalJSON accepts any value.
func (*Empty) UnmarshalJSON([]byte) error { return nil }
