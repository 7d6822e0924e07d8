package langpool

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
	// used is when the pool last asked about it (the client's tick): the
	// least recently used is closed past maxOpenDocs.
	used uint64
}

// maxOpenDocs is the most documents open in one server: past it, the one
// asked about least recently is closed (didClose), so that neither the
// server nor agentls holds every file of a long session.
const maxOpenDocs = 64

// sync forwards agentls's view of a file (the editor's unsaved text or
// the agent's applied edit first, else the disk: workspace.ReadFile) to
// the server: didOpen the first time, didChange (full text, next version)
// when it changed since. Documents open in the server whose file is gone
// (deleted, and in no editor buffer) are closed first, and the least
// recently used one past maxOpenDocs after. It returns the file's URI.
func (c *client) sync(ctx context.Context, ws *workspace.Workspace, abs string) (string, error) {
	p, err := ws.Resolve(abs)
	if err != nil {
		return "", err
	}
	uri := fileURI(p.Abs)
	text, err := ws.ReadFile(p)
	gone := c.vanished(ws, uri)
	if errors.Is(err, fs.ErrNotExist) {
		gone = append(gone, uri)
	}
	c.touch()
	c.syncMu.Lock()
	defer c.syncMu.Unlock() // orders this file's notifications (each write is bounded: stream.go)
	if cerr := c.close(ctx, gone, true); cerr != nil {
		return "", cerr
	}
	if err != nil {
		return "", err
	}
	version, open, changed, evict := c.noteSent(uri, text)
	if evict != "" {
		if err := c.close(ctx, []string{evict}, false); err != nil {
			return "", err
		}
	}
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
// changed (else there is nothing to send); evict is the open document to
// close, when opening uri makes more than maxOpenDocs. A change forgets
// when the file was last published (settled.go). Versions count up across
// the client's documents, so a document opened again after a close never
// takes a version a publish kept from before the close names.
func (c *client) noteSent(uri, text string) (version int, open, changed bool, evict string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick++
	doc, open := c.docs[uri]
	if open && doc.text == text {
		doc.used = c.tick
		return doc.version, true, false, ""
	}
	if !open && len(c.docs) >= maxOpenDocs {
		var oldest uint64
		for u, d := range c.docs {
			if evict == "" || d.used < oldest {
				evict, oldest = u, d.used
			}
		}
	}
	c.versions++
	c.docs[uri] = &document{version: c.versions, text: text, lines: lineCount(text), used: c.tick}
	delete(c.publishedAt, uri)
	return c.versions, open, true, evict
}

// vanished are the documents open in the server, other than uri, whose
// file is gone: not on disk and in no editor buffer or applied edit.
func (c *client) vanished(ws *workspace.Workspace, uri string) []string {
	c.mu.Lock()
	open := make([]string, 0, len(c.docs))
	for u := range c.docs {
		if u != uri {
			open = append(open, u)
		}
	}
	c.mu.Unlock()
	var gone []string
	for _, u := range open { // stat outside the lock
		path, err := uriPath(u)
		if err != nil {
			continue
		}
		if _, _, ok := ws.Overlay().Get(path); ok {
			continue
		}
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, u)
		}
	}
	return gone
}

// close closes the documents uris that are open in the server (didClose;
// c.syncMu held). Their last publish is kept as an unopened file's, or,
// when the file is gone, forgotten.
func (c *client) close(ctx context.Context, uris []string, gone bool) error {
	for _, uri := range uris {
		c.mu.Lock()
		_, open := c.docs[uri]
		if open {
			c.forgetLocked(uri, gone)
		}
		c.mu.Unlock()
		if !open {
			continue
		}
		if err := c.conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": textDocumentID{URI: uri}}); err != nil {
			return fmt.Errorf("%s: close %s: %w", c.argv[0], uri, err)
		}
	}
	return nil
}

// forgetLocked drops uri's document; its kept publish becomes an
// unopened file's, within maxUnopenedBytes, or is dropped when gone (or
// past that budget) (c.mu held).
func (c *client) forgetLocked(uri string, gone bool) {
	delete(c.docs, uri)
	if old, ok := c.unopenedSize[uri]; ok {
		c.unopenedBytes -= old
		delete(c.unopenedSize, uri)
	}
	pub, ok := c.published[uri]
	if !ok {
		return
	}
	if size := publishedSize(pub); !gone && c.unopenedBytes+size <= maxUnopenedBytes {
		c.unopenedBytes += size
		c.unopenedSize[uri] = size
		return
	}
	delete(c.published, uri)
	delete(c.publishedAt, uri)
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
