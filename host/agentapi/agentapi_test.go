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

// TestServe: the params are decoded first, the agent found by their
// sessionId next, and only then the agent asked; an error of the face's
// decoding or resolving comes back as it is, the agent's too (the face
// maps it).
func TestServe(t *testing.T) {
	var cancel Handler
	for _, h := range Handlers() {
		if h.Method().Name == agentproto.Cancel.Name() {
			cancel = h
		}
	}
	errDecode, errResolve := errors.New("decode"), errors.New("resolve")
	agent := &cancelOnly{}
	var resolved []string
	at := func(id string) (Services, error) {
		resolved = append(resolved, id)
		if id == "elsewhere" {
			return nil, errResolve
		}
		return agent, nil
	}
	params := func(id string) Decode {
		return func(v any) error { v.(*agentproto.SessionParams).SessionID = id; return nil }
	}
	tests := []struct {
		name   string
		decode Decode
		want   error
		asked  []string // the sessions resolved, and then cancelled
	}{
		{"malformed", func(any) error { return errDecode }, errDecode, nil},
		{"elsewhere", params("elsewhere"), errResolve, []string{"elsewhere"}},
		{"busy", params("busy"), errBusy, []string{"busy"}},
		{"cancelled", params("s1"), nil, []string{"s1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resolved, agent.cancelled = nil, nil
			res, err := cancel.Serve(context.Background(), at, tc.decode)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
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
