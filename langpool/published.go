package langpool

import (
	"log/slog"
	"strings"
	"unicode/utf8"
)

// Bounds of what a language server's diagnostics may hold in agentls's
// memory: a server is a program agentls does not trust, and its
// publishDiagnostics notifications are kept until it publishes again.
const (
	// maxFileDiagnostics is the most diagnostics kept of one file (a
	// publish or a pulled answer); the rest are dropped.
	maxFileDiagnostics = 1000
	// maxDiagnosticText is the most bytes kept of a diagnostic's message
	// (and of its source and code).
	maxDiagnosticText = 4096
	// maxUnopenedBytes is the most bytes the kept publishes of files
	// agentls did not open may take together; a publish past it is
	// dropped (the files agentls opened are always kept: each is bounded
	// by the two limits above).
	maxUnopenedBytes = 8 << 20
)

// boundDiagnostics cuts ds to maxFileDiagnostics, each text to
// maxDiagnosticText bytes.
func boundDiagnostics(ds []wireDiagnostic) []wireDiagnostic {
	if len(ds) > maxFileDiagnostics {
		ds = append([]wireDiagnostic(nil), ds[:maxFileDiagnostics]...) // frees the rest
	}
	for i := range ds {
		ds[i].Message = cutText(ds[i].Message)
		ds[i].Source = cutText(ds[i].Source)
		if len(ds[i].Code) > maxDiagnosticText {
			ds[i].Code = nil
		}
	}
	return ds
}

// cutText cuts s to maxDiagnosticText bytes at a character boundary.
func cutText(s string) string {
	if len(s) <= maxDiagnosticText {
		return s
	}
	cut := maxDiagnosticText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.Clone(s[:cut]) + "…"
}

// publishedSize is about how many bytes p takes once kept.
func publishedSize(p publishParams) int {
	n := len(p.URI) + 64
	for _, d := range p.Diagnostics {
		n += len(d.Message) + len(d.Source) + len(d.Code) + 64
	}
	return n
}

// keepPublished records the server's publish p (its diagnostics already
// bounded) under its file's URI as the pool spells it, within maxUnopenedBytes for files agentls did not open (c.mu
// held). It reports whether p was kept.
func (c *client) keepPublished(p publishParams) bool {
	p.URI = canonicalURI(p.URI)
	size := publishedSize(p)
	_, open := c.docs[p.URI]
	if old, ok := c.unopenedSize[p.URI]; open && ok { // opened since: always kept
		c.unopenedBytes -= old
		delete(c.unopenedSize, p.URI)
	}
	if !open {
		old := c.unopenedSize[p.URI]
		if c.unopenedBytes-old+size > maxUnopenedBytes {
			if !c.overBudget {
				c.overBudget = true
				slog.Warn("language server publishes more diagnostics than agentls keeps; later ones of unopened files are dropped",
					"argv", c.argv, "maxBytes", maxUnopenedBytes)
			}
			return false
		}
		c.unopenedBytes += size - old
		c.unopenedSize[p.URI] = size
	}
	c.published[p.URI] = p
	c.publishedAt[p.URI] = c.now()
	return true
}
