package agentapi

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestHandlersOfTable: every handler is a client→server row of agentproto's
// table that a face serves, once.
func TestHandlersOfTable(t *testing.T) {
	var seen []string
	for _, h := range Handlers() {
		m := h.Method()
		row, ok := agentproto.Lookup(m.Name)
		if !ok || row.Direction != agentproto.ClientRequest || row.Faces&(agentproto.LSP|agentproto.ACP) == 0 {
			t.Errorf("%s: no client→server row of the table that names LSP or ACP", m.Name)
		}
		if slices.Contains(seen, m.Name) {
			t.Errorf("%s has two handlers", m.Name)
		}
		seen = append(seen, m.Name)
	}
}

// cancelOnly is an agent that can only cancel: it records the session.
type cancelOnly struct {
	Services
	cancelled []string
}

func (c *cancelOnly) Cancel(id string) error {
	c.cancelled = append(c.cancelled, id)
	if id == "busy" {
		return errBusy
	}
	return nil
}

var errBusy = errors.New("busy")

// faceError is a face's error, wrapping what it stands for.
type faceError struct{ of error }

func (e faceError) Error() string { return "face: " + e.of.Error() }
func (e faceError) Unwrap() error { return e.of }

// TestServe: the params are decoded first (a malformed payload is the
// face's invalid-params error), the agent found by their sessionId next,
// and only then the agent asked; an error of the face's resolving comes
// back as it is, the agent's own through the face's mapping.
func TestServe(t *testing.T) {
	var cancel Handler
	for _, h := range Handlers() {
		if h.Method().Name == agentproto.Cancel.Name() {
			cancel = h
		}
	}
	errInvalid, errResolve := errors.New("invalid"), errors.New("resolve")
	agent := &cancelOnly{}
	var resolved, invalid []string
	face := Face{
		Invalid: func(reason string) error { invalid = append(invalid, reason); return errInvalid },
		At: func(id string) (Services, error) {
			resolved = append(resolved, id)
			if id == "elsewhere" {
				return nil, errResolve
			}
			return agent, nil
		},
		Error: func(err error) error { return faceError{err} },
	}
	tests := []struct {
		name    string
		params  string
		want    error
		mapped  bool     // the error came through face.Error
		invalid []string // the reasons face.Invalid was given
		asked   []string // the sessions resolved, and then cancelled
	}{
		{"malformed", `{"sessionId":1}`, errInvalid, false, []string{"sessionId should be text, not a number"}, nil},
		{"not JSON", `{`, errInvalid, false, []string{"not valid JSON (at byte 1)"}, nil},
		{"elsewhere", `{"sessionId":"elsewhere"}`, errResolve, false, nil, []string{"elsewhere"}},
		{"busy", `{"sessionId":"busy"}`, errBusy, true, nil, []string{"busy"}},
		{"cancelled", `{"sessionId":"s1"}`, nil, false, nil, []string{"s1"}},
		{"null params", `null`, nil, false, nil, []string{""}},
		{"no params", ``, nil, false, nil, []string{""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resolved, invalid, agent.cancelled = nil, nil, nil
			res, err := cancel.Serve(context.Background(), face, []byte(tc.params))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if _, mapped := err.(faceError); mapped != tc.mapped {
				t.Errorf("err %v mapped by the face: %v, want %v", err, mapped, tc.mapped)
			}
			if !slices.Equal(invalid, tc.invalid) {
				t.Errorf("invalid-params reasons %q, want %q", invalid, tc.invalid)
			}
			if err == nil && res != (agentproto.Null{}) {
				t.Errorf("result %#v, want agentproto.Null", res)
			}
			if err != nil && res != nil {
				t.Errorf("result %#v beside the error", res)
			}
			if !slices.Equal(resolved, tc.asked) {
				t.Errorf("resolved %v, want %v", resolved, tc.asked)
			}
			if tc.want != errResolve && !slices.Equal(agent.cancelled, tc.asked) {
				t.Errorf("cancelled %v, want %v", agent.cancelled, tc.asked)
			}
		})
	}
}

// TestSessionField: the params' sessionId is found where it is, also
// promoted from an embedded struct; params without one name no session.
func TestSessionField(t *testing.T) {
	type embedded struct{ agentproto.SessionParams }
	for _, tc := range []struct {
		typ  reflect.Type
		want []int
	}{
		{reflect.TypeFor[agentproto.SessionParams](), []int{0}},
		{reflect.TypeFor[agentproto.RewindParams](), []int{0}},
		{reflect.TypeFor[embedded](), []int{0, 0}},
		{reflect.TypeFor[agentproto.Empty](), nil},
		{reflect.TypeFor[agentproto.ListPlansParams](), nil},
		{reflect.TypeFor[string](), nil},
	} {
		if got := sessionField(tc.typ); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.typ, got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a SessionID that is no string is accepted")
		}
	}()
	sessionField(reflect.TypeFor[struct{ SessionID int }]())
}
