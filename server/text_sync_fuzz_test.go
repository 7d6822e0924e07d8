package server

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/workspace"
)

// FuzzTextSyncParams feeds the text synchronization notifications
// arbitrary params (the editor's bytes, applied inline on the read loop,
// where a panic kills the server) and holds: no panic; a didChange that
// fails either leaves the buffer's text as it was or marks the buffer lost
// (the user is told, nothing is edited on a guessed text) or holds the
// text a later whole-document change sent; a didChange that
// succeeds leaves a buffer that is not lost.
func FuzzTextSyncParams(f *testing.F) {
	const uri = `"file:///w/a.go"`
	for _, p := range []string{
		`{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"X"}]}`,
		`{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"text":"whole"}]}`,
		`{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"range":{"start":{"line":9,"character":0},"end":{"line":9,"character":0}},"text":"X"},{"text":"again"}]}`,
		`{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[null]}`,
		`{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"range":null,"text":"x"}]}`,
		`{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":null}`,
		`{"textDocument":{"uri":` + uri + `}}`,
		`{"textDocument":{"uri":"file:///w/b.go","languageId":"go","version":1,"text":"x"}}`,
		`{"textDocument":null}`, `null`, `[]`, `{}`,
	} {
		f.Add("package a\n\nfunc 😀() {}\n", "textDocument/didChange", p)
	}
	f.Add("", "textDocument/didOpen", `{"textDocument":{"uri":"file:///w/b.go","languageId":"go","version":1,"text":"x"}}`)
	f.Add("x", "textDocument/didClose", `{"textDocument":{"uri":`+uri+`}}`)
	f.Fuzz(func(t *testing.T, text, method, params string) {
		switch method {
		case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose":
		default:
			method = "textDocument/didChange"
		}
		o := workspace.NewOverlay()
		o.Open("/w/a.go", 1, text)
		doc, err := syncDocument(o, method, jsonrpc2.RawMessage(params))
		if method != "textDocument/didChange" || doc.path != "/w/a.go" {
			return
		}
		now, _, open := o.Get("/w/a.go")
		lost := o.Lost("/w/a.go")
		switch {
		case !open:
			t.Fatalf("didChange closed the buffer")
		case err != nil && lost == "" && now != text && !wholeTexts(params)[now]:
			t.Fatalf("a failed didChange (%v) changed the text %q to %q without marking it lost", err, text, now)
		case err == nil && lost != "":
			t.Fatalf("a didChange that succeeded left the buffer lost: %s", lost)
		case err != nil && lost != "" && !strings.Contains(err.Error(), "didChange"):
			t.Fatalf("error %q does not say what failed", err)
		}
	})
}

// wholeTexts are the texts of params' whole-document changes.
func wholeTexts(params string) map[string]bool {
	var p struct {
		ContentChanges []map[string]json.RawMessage `json:"contentChanges"`
	}
	out := map[string]bool{}
	if json.Unmarshal([]byte(params), &p) != nil {
		return out
	}
	for _, c := range p.ContentChanges {
		var text string
		if _, ranged := c["range"]; !ranged && json.Unmarshal(c["text"], &text) == nil {
			out[text] = true
		}
	}
	return out
}
