package langpool

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
)

// A clean file that stays clean (docs/language-intel.md, "Diagnostics").
//
// typescript-language-server publishes a file's diagnostics only when a
// kind of check changed from what it published last, so after a change
// that leaves a clean file clean it publishes nothing, and the file would
// stay pending until lsp.settle_ms ran out (settled: false after every
// such edit). Where the server offers tsserverCommand, the pool asks
// tsserver itself, once per version: its synchronous syntactic, semantic
// and suggestion checks answer for the text the server was last sent (the
// change reached tsserver before the request). When all three are empty,
// the empty publish it kept is the changed text's too. Any problem, an
// error or a timeout leaves the file to the publishes, as before.

// tsserverCommand is typescript-language-server's command that forwards a
// request to tsserver.
const tsserverCommand = "typescript.tsserverRequest"

// cleanChecks are the tsserver requests whose answers together are what
// the server publishes for a file.
var cleanChecks = []string{"syntacticDiagnosticsSync", "semanticDiagnosticsSync", "suggestionDiagnosticsSync"}

// cleanCheckTimeout bounds the three checks of one version (a server
// that exits ends them sooner).
const cleanCheckTimeout = 10 * time.Second

// askCleanLocked reports whether uri's text should be checked for staying
// clean: the server can be asked (and is not stopping), uri is pending,
// the publish kept for it is versionless and empty, and this version was
// not asked about yet. It returns that version, now marked as asked (c.mu
// held).
func (c *client) askCleanLocked(uri string, pending bool) (version int, ask bool) {
	doc := c.docs[uri]
	pub, ok := c.published[uri]
	if !c.checksClean || c.stopping || !pending || doc == nil || !ok || pub.Version != nil || len(pub.Diagnostics) != 0 || doc.askedClean >= doc.version {
		return 0, false
	}
	doc.askedClean = doc.version
	return doc.version, true
}

// checkClean asks whether uri's text of version stayed clean and marks
// it so; it runs beside the polls (one of c.checks), so a slow tsserver
// never holds a poll: the settle budget bounds the wait, as for a publish.
func (c *client) checkClean(uri string, version int) {
	defer c.checks.Done()
	ctx, cancel := context.WithTimeout(context.Background(), cleanCheckTimeout)
	defer cancel()
	go func() { // a server that exits ends the check
		select {
		case <-c.exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	if c.stillClean(ctx, uri) {
		c.mu.Lock()
		c.markCleanLocked(uri, version)
		c.mu.Unlock()
	}
}

// stillClean asks tsserver, through the server, whether uri has no
// problem at all in the text it was last sent.
func (c *client) stillClean(ctx context.Context, uri string) bool {
	for _, check := range cleanChecks {
		var res struct {
			Success bool              `json:"success"`
			Body    []json.RawMessage `json:"body"`
		}
		params := map[string]any{"command": tsserverCommand, "arguments": []any{check, map[string]any{"file": uri}}}
		if err := c.call(ctx, "workspace/executeCommand", params, &res); err != nil {
			slog.Debug("language server: could not check that a file stayed clean", "argv", c.argv, "check", check, "err", err)
			return false
		}
		if !res.Success || len(res.Body) != 0 {
			return false
		}
	}
	return true
}

// markCleanLocked records that uri's text of version has no problem, if
// that is still the text the server was last sent (c.mu held).
func (c *client) markCleanLocked(uri string, version int) {
	if doc := c.docs[uri]; doc != nil && doc.version == version {
		doc.clean = version
	}
}
