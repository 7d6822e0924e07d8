package langpool

import (
	"strings"
	"time"
)

// When a file's published diagnostics are for the text the server was
// last sent (docs/language-intel.md, "Diagnostics").
//
// A publish with a version says which text it is for. One without (as
// typescript-language-server sends them) does not, and a publish computed
// for the old text can arrive after a change was sent: that server
// publishes once per kind of check (syntactic, semantic, suggestion),
// merged per file and debounced by 50 ms, and it starts the next run only
// a delay after the latest change (its diagnosticDelayer: the file's line
// count over 20, in ms, between 300 and 800). So a versionless file is
// settled only once a publish came after its latest change AND no publish
// came for quietFor(lines): longer than that delay plus the publish's
// debounce, so that a late publish of the old text is always followed,
// within the spell, by the new run's (which that server skips only when
// its list stays what it published last, empty: then the late publish was
// right). The spell is judged when the pool is asked: callers that wait
// for Pending to clear (intel.Settle) poll, so it clears by itself, no
// later than a poll after the spell.
const (
	// versionlessDelayMin and versionlessDelayMax bound the delay a
	// versionless server takes before it checks a changed file;
	// versionlessLinesPerMs is how it grows with the file's lines.
	versionlessDelayMin   = 300 * time.Millisecond
	versionlessDelayMax   = 800 * time.Millisecond
	versionlessLinesPerMs = 20
	// versionlessSlack is added to that delay: the server's 50 ms publish
	// debounce and its check of the new text, on a loaded machine.
	versionlessSlack = 250 * time.Millisecond
)

// quietFor is how long a versionless server must not have published,
// after a change of a file of lines lines, before its last publish counts
// as the changed text's.
func quietFor(lines int) time.Duration {
	delay := time.Duration(lines/versionlessLinesPerMs) * time.Millisecond
	return min(max(delay, versionlessDelayMin), versionlessDelayMax) + versionlessSlack
}

// lineCount is how many lines text has, as a server counts them.
func lineCount(text string) int {
	return strings.Count(text, "\n") + 1
}

// pendingLocked reports whether uri's kept publish is not yet known to be
// for the text the server was last sent, at now (c.mu held).
func (c *client) pendingLocked(uri string, now time.Time) bool {
	pub, ok := c.published[uri]
	doc := c.docs[uri]
	switch {
	case !ok:
		return true
	case doc == nil:
		return false
	case pub.Version != nil:
		return *pub.Version < doc.version
	case doc.clean == doc.version && len(pub.Diagnostics) == 0:
		return false // tsserver said this text has no problem (clean.go)
	}
	at, fresh := c.publishedAt[uri]
	return !fresh || now.Sub(at) < quietFor(doc.lines)
}
