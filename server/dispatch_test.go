package server

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// TestHandlersFromTable: the LSP face serves exactly the client→server
// rows of agentproto's table, and every command of the table, nothing
// else: a row added without a handler (or a handler without a row) fails
// here.
func TestHandlersFromTable(t *testing.T) {
	var wantMethods, wantCommands []string
	for _, m := range agentproto.Table() {
		if m.Direction == agentproto.ClientRequest && m.Faces.Has(agentproto.LSP) {
			wantMethods = append(wantMethods, m.Name)
		}
		if m.Command != "" {
			wantCommands = append(wantCommands, m.Command)
		}
	}
	sort.Strings(wantMethods)
	sort.Strings(wantCommands)
	if got := methodNames(); !slices.Equal(got, wantMethods) {
		t.Errorf("the server handles %v;\nthe table's LSP client→server methods are %v", got, wantMethods)
	}
	if got := commandNames(); !slices.Equal(got, wantCommands) {
		t.Errorf("the server's commands are %v;\nthe table's are %v", got, wantCommands)
	}
	for name := range commandHandlers {
		if m, ok := agentproto.Lookup(name); !ok || m.Command == "" {
			t.Errorf("commandHandlers has %s, which is no command of the table", name)
		}
	}
	for _, m := range agentproto.Table() {
		if c, ok := commands[m.Command]; ok && (c.shape != m.CommandShape || c.session != m.CommandSession) {
			t.Errorf("%s: shape %q session %v, the table says %q %v", m.Command, c.shape, c.session, m.CommandShape, m.CommandSession)
		}
	}
}

// TestServerToClientShapes: what the server sends as agent/askUser,
// agent/modeChanged and agent/update has the members agentproto declares
// for them, down to the questions and refusals they carry, where the agent
// sends a type of its own (the updates that are agentproto's types, and
// permission options, need no row: they are one declaration).
func TestServerToClientShapes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		sent, decl any
	}{
		{agentproto.AskUser.Name(), askUserParams{}, agentproto.AskUserParams{}},
		{agentproto.ModeChanged.Name(), agentproto.ModeChangedParams{}, agentproto.ModeChangedParams{}},
		{"Question", questions.Question{}, agentproto.Question{}},
		{"QuestionButton", questions.Button{}, agentproto.QuestionButton{}},
		{"tool_call_update", agent.UpdateToolCallDone{}, agentproto.ToolCallDone{}},
		{"question_pending", agent.UpdateQuestion{}, agentproto.QuestionPending{}},
		{"Refusal", guard.Refusal{}, agentproto.Refusal{}},
		{"InstructionFile", agentproto.InstructionFile{}, agentproto.InstructionFile{}},
	} {
		if got, want := jsonMembers(reflect.TypeOf(tc.sent)), jsonMembers(reflect.TypeOf(tc.decl)); got != want {
			t.Errorf("%s: the server sends %s; agentproto declares %s", tc.name, got, want)
		}
	}
}

// jsonMembers lists a struct's JSON members with their options, sorted.
func jsonMembers(t reflect.Type) string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			out = append(out, jsonMembers(ft))
			continue
		}
		if tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
