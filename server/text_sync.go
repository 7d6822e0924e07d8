package server

import (
	"context"
	"encoding/json"
	"log/slog"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/workspace"
)

// Preempt applies didOpen/didChange/didClose inline on the read loop, in wire
// order, without I/O: incremental sync must never see two changes swapped.
// A didSave is noted there too (noteSave), then handled as usual.
// Everything else goes on to the (concurrent) handler. req views the
// connection's read buffer, which the next message reuses: nothing borrowed
// from it (its method string, its raw params) may be kept; decoded params
// are copies.
func (s *Server) Preempt(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose":
	case "textDocument/didSave":
		s.noteSave(req.Params())
		return nil, jsonrpc2.ErrNotHandled // the handler (didSave) updates the overlay
	case "shutdown", "exit":
		return s.preemptLifecycle(req.Method())
	default:
		return nil, jsonrpc2.ErrNotHandled
	}
	ws := s.workspace()
	if ws == nil {
		return struct{}{}, nil // before initialize: ignored
	}
	doc, err := syncDocument(ws.Overlay(), req.Method(), req.Params())
	if err != nil {
		slog.Warn("text sync", "method", req.Method(), "err", err)
		if doc.path != "" && ws.Overlay().Lost(doc.path) != "" {
			s.docWork.lost.put(doc.path, doc.uri) // text_sync_lost.go: tell the user
		}
	} else {
		s.documentSynced(req.Method(), doc) // diagnostics.go: only queues work
	}
	return struct{}{}, nil
}

// syncDocument applies one text synchronization notification to the overlay
// and returns the document it was about.
func syncDocument(o *workspace.Overlay, method string, params jsonrpc2.RawMessage) (docRef, error) {
	switch method {
	case "textDocument/didOpen":
		p, doc, err := decodeSync(params, func(p protocol.DidOpenTextDocumentParams) string { return p.TextDocument.URI.String() })
		if err != nil {
			return docRef{}, err
		}
		o.Open(doc.path, p.TextDocument.Version, p.TextDocument.Text)
		return doc, nil
	case "textDocument/didChange":
		p, doc, err := decodeSync(params, func(p protocol.DidChangeTextDocumentParams) string { return p.TextDocument.URI.String() })
		if err != nil {
			return docRef{}, err
		}
		changes := make([]workspace.ContentChange, 0, len(p.ContentChanges))
		for _, c := range p.ContentChanges {
			switch c := c.(type) {
			case *protocol.TextDocumentContentChangePartial:
				r := workspace.Range{
					Start: workspace.Position{Line: c.Range.Start.Line, Character: c.Range.Start.Character},
					End:   workspace.Position{Line: c.Range.End.Line, Character: c.Range.End.Character},
				}
				changes = append(changes, workspace.ContentChange{Range: &r, Text: c.Text})
			case *protocol.TextDocumentContentChangeWholeDocument:
				changes = append(changes, workspace.ContentChange{Text: c.Text})
			}
		}
		return doc, o.Change(doc.path, p.TextDocument.Version, changes)
	case "textDocument/didClose":
		_, doc, err := decodeSync(params, func(p protocol.DidCloseTextDocumentParams) string { return p.TextDocument.URI.String() })
		if err != nil {
			return docRef{}, err
		}
		o.Close(doc.path)
		return doc, nil
	}
	return docRef{}, nil
}

// decodeSync decodes a text synchronization notification's params and
// resolves the document they name (uriOf picks its URI).
func decodeSync[P any](params jsonrpc2.RawMessage, uriOf func(P) string) (P, docRef, error) {
	var p P
	if err := protocol.Unmarshal(params, &p); err != nil {
		return p, docRef{}, err
	}
	uri := uriOf(p)
	path, err := host.PathOfURI(uri)
	if err != nil {
		return p, docRef{}, err
	}
	return p, docRef{uri: uri, path: path}, nil
}

// noteSave tells the agent, on the read loop (in wire order, without I/O),
// that the editor saved a file: the user's change, which a command running
// meanwhile did not make (checkpoint attribution, docs/rewind.md). Noted
// as soon as it is read, it reaches a command's rescan that starts after
// any later message from the editor.
func (s *Server) noteSave(params jsonrpc2.RawMessage) {
	mgr := s.manager()
	if mgr == nil {
		return
	}
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return // the handler reports it
	}
	if path, err := host.PathOfURI(p.TextDocument.URI); err == nil {
		mgr.EditorSaved(path)
	}
}

func (s *Server) didSave(_ context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	ws := s.workspace()
	if ws == nil {
		return nil, nil
	}
	path, err := host.PathOfURI(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	ws.Overlay().Saved(path, p.Text)
	s.documentSaved(docRef{uri: p.TextDocument.URI, path: path}) // diagnostics.go
	return nil, nil
}
