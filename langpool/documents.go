package langpool

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/workspace"
)

// document is what the server was sent of a file.
type document struct {
	version int
	text    string
}

// sync forwards agentls's view of a file (the editor's unsaved text or
// the agent's applied edit first, else the disk: workspace.ReadFile) to
// the server: didOpen the first time, didChange (full text, next version)
// when it changed since. It returns the file's URI.
func (c *client) sync(ctx context.Context, ws *workspace.Workspace, abs string) (string, error) {
	p, err := ws.Resolve(abs)
	if err != nil {
		return "", err
	}
	text, err := ws.ReadFile(p)
	if err != nil {
		return "", err
	}
	uri := fileURI(p.Abs)
	c.touch()
	c.syncMu.Lock()
	defer c.syncMu.Unlock() // orders this file's notifications (they only queue a write)
	c.mu.Lock()
	doc, open := c.docs[uri]
	if open && doc.text == text {
		c.mu.Unlock()
		return uri, nil
	}
	version := 1
	if open {
		version = doc.version + 1
	}
	c.docs[uri] = &document{version: version, text: text}
	c.fresh[uri] = false
	c.mu.Unlock()
	if !open {
		err = c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": intel.FileType(p.Abs), "version": version, "text": text},
		})
	} else {
		err = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []map[string]any{{"text": text}},
		})
	}
	if err != nil {
		return "", fmt.Errorf("%s: send %s: %w", c.argv[0], p.Rel, err)
	}
	return uri, nil
}

// diagnostics are the file's current problems: pulled when the server
// offers it, else the last published ones, pending while the server has
// not published for the text it was last sent.
func (c *client) diagnostics(ctx context.Context, uri string) ([]intel.Diagnostic, bool, error) {
	if c.pull {
		var res struct {
			Kind  string           `json:"kind"`
			Items []wireDiagnostic `json:"items"`
		}
		if err := c.call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": textDocumentID{URI: uri}}, &res); err != nil {
			return nil, false, err
		}
		return convert(boundDiagnostics(res.Items)), false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pub, ok := c.published[uri]
	doc := c.docs[uri]
	pending := !ok
	if ok && doc != nil {
		switch {
		case pub.Version != nil:
			pending = *pub.Version < doc.version
		default:
			pending = !c.fresh[uri]
		}
	}
	return convert(pub.Diagnostics), pending, nil
}

// knownDiagnostics are every file's last published problems (the
// workspace's, as far as the server reported them).
func (c *client) knownDiagnostics() map[string][]intel.Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]intel.Diagnostic{}
	for uri, pub := range c.published {
		if p, err := uriPath(uri); err == nil && len(pub.Diagnostics) > 0 {
			out[p] = convert(pub.Diagnostics)
		}
	}
	return out
}

func convert(ds []wireDiagnostic) []intel.Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	out := make([]intel.Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = d.diagnostic()
	}
	return out
}
