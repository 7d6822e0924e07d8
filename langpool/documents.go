package langpool

import (
	"context"
	"fmt"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/workspace"
)

// document is what the server was sent of a file.
type document struct {
	version int
	text    string
	lines   int // the text's line count (settled.go)
	// askedClean is the latest version checked for staying clean, clean
	// the latest found so (clean.go); 0 for none.
	askedClean, clean int
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
	defer c.syncMu.Unlock() // orders this file's notifications (each write is bounded: stream.go)
	version, open, changed := c.noteSent(uri, text)
	if !changed {
		return uri, nil
	}
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

// noteSent records text as uri's, to be sent to the server: its version,
// whether the server has the file open already, and whether the text
// changed (else there is nothing to send). A change forgets when the file
// was last published (settled.go).
func (c *client) noteSent(uri, text string) (version int, open, changed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	doc, open := c.docs[uri]
	if open && doc.text == text {
		return doc.version, true, false
	}
	version = 1
	if open {
		version = doc.version + 1
	}
	c.docs[uri] = &document{version: version, text: text, lines: lineCount(text)}
	delete(c.publishedAt, uri)
	return version, open, true
}

// diagnostics are the file's current problems: pulled when the server
// offers it, else the last published ones, pending while they are not
// known to be for the text the server was last sent (settled.go; a clean
// file that stays clean: clean.go).
func (c *client) diagnostics(ctx context.Context, uri string, budget time.Duration) ([]intel.Diagnostic, bool, error) {
	if c.pull {
		var res struct {
			Kind  string           `json:"kind"`
			Items []wireDiagnostic `json:"items"`
		}
		// A server's first answer is part of its start (requestTimeout);
		// once it has answered, a pull it does not answer within the settle
		// budget is pending: the settle ends unsettled at its budget instead
		// of waiting on a stuck server (docs/language-intel.md).
		pctx := ctx
		if c.pulled.Load() && budget > 0 {
			var cancel context.CancelFunc
			pctx, cancel = context.WithTimeout(ctx, budget)
			defer cancel()
		}
		if err := c.call(pctx, "textDocument/diagnostic", map[string]any{"textDocument": textDocumentID{URI: uri}}, &res); err != nil {
			if ctx.Err() == nil && pctx.Err() != nil {
				return nil, true, nil
			}
			return nil, false, err
		}
		c.pulled.Store(true)
		return convert(boundDiagnostics(res.Items)), false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pending := c.pendingLocked(uri, c.now())
	pub := c.published[uri]
	if version, ask := c.askCleanLocked(uri, pending); ask {
		c.checks.Add(1)
		go c.checkClean(uri, version) // a later poll sees its answer
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
