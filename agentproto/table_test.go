package agentproto

import (
	"reflect"
	"strings"
	"testing"
)

// TestTable: every row is well formed, so the faces and the generator can
// rely on it.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	commands := map[string]bool{}
	for _, m := range Table() {
		if seen[m.Name] {
			t.Errorf("%s is declared twice", m.Name)
		}
		seen[m.Name] = true
		if !strings.HasPrefix(m.Name, "agent/") && !(strings.HasPrefix(m.Name, "agentls.") && m.Faces == Command && m.Command == m.Name) {
			t.Errorf("%s: a method is agent/<name>, or a command-only row named for its command", m.Name)
		}
		if m.Faces == 0 || m.Doc == "" || m.Since < 1 || m.Since > ProtocolVersion+1 {
			t.Errorf("%s: faces %q, doc %q, since %d: each row has faces, a doc line and a version up to %d", m.Name, m.Faces, m.Doc, m.Since, ProtocolVersion+1)
		}
		if (m.Command != "") != m.Faces.Has(Command) || (m.Command != "" && (!strings.HasPrefix(m.Command, "agentls.") || m.CommandShape == "")) {
			t.Errorf("%s: command %q (shape %q) with faces %s", m.Name, m.Command, m.CommandShape, m.Faces)
		}
		if commands[m.Command] {
			t.Errorf("command %s is declared twice", m.Command)
		}
		if m.Command != "" {
			commands[m.Command] = true
		}
		if m.Direction != ClientRequest && m.Faces != LSP {
			t.Errorf("%s: a server→client method is on the LSP face only (the ACP face has its own)", m.Name)
		}
		if m.Params == nil || m.Params.Kind() != reflect.Struct || (m.Result == nil) != (m.Direction == ServerNotification) {
			t.Errorf("%s: params %v, result %v", m.Name, m.Params, m.Result)
		}
		if got, ok := Lookup(m.Name); !ok || got.Name != m.Name {
			t.Errorf("Lookup(%s) = %v, %v", m.Name, got.Name, ok)
		}
	}
	if got := Compact.Method().ACPName(); got != "_agentls/compact" {
		t.Errorf("compact's ACP name is %q", got)
	}
	if got := NewSession.Method().ACPName(); got != "" {
		t.Errorf("newSession has ACP name %q; the ACP face has session/new", got)
	}
}
