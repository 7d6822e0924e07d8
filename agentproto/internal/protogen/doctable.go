package main

import (
	"fmt"
	"strings"

	"github.com/agentls/agentls/agentproto"
)

// methodTable is docs/protocol.md's method table: every method and
// command, who sends it, the faces it is reached on, the version that
// brought it, the capability that gates it and its types.
func methodTable() string {
	var b strings.Builder
	b.WriteString("| method | direction | faces | since | capability | params → result | does |\n|---|---|---|---|---|---|---|\n")
	for _, m := range agentproto.Table() {
		var faces []string
		if m.Faces.Has(agentproto.LSP) {
			faces = append(faces, "LSP")
		}
		if m.Command != "" && m.Command != m.Name {
			faces = append(faces, "command `"+m.Command+"`")
		} else if m.Command != "" {
			faces = append(faces, "command")
		}
		if m.Faces.Has(agentproto.ACP) {
			faces = append(faces, "ACP `"+m.ACPName()+"`")
		}
		capability := "—"
		if m.Capability != "" {
			capability = "`" + m.Capability + "`"
		}
		types := "`" + m.Params.Name() + "`"
		if m.Result != nil {
			types += " → `" + m.Result.Name() + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %d | %s | %s | %s |\n", m.Name, m.Direction, strings.Join(faces, ", "), m.Since, capability, types, m.Doc)
	}
	return b.String()
}

// splice replaces the text between the marker lines start and end of doc
// with generated (start, a blank line, generated, end), as
// internal/golden.CheckSection lays a section out.
func splice(doc, start, end, generated string) (string, error) {
	i := strings.Index(doc, start+"\n")
	j := strings.Index(doc, "\n"+end)
	if i < 0 || j < i {
		return "", fmt.Errorf("the markers %q and %q are missing", start, end)
	}
	return doc[:i+len(start)+1] + "\n" + generated + doc[j:], nil
}
