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
	return markdownTable([]string{"method", "direction", "faces", "since", "capability", "params → result", "does"}, func(m agentproto.Method) []string {
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
		return []string{"`" + m.Name + "`", string(m.Direction), strings.Join(faces, ", "), fmt.Sprint(m.Since), capability, types, m.Doc}
	})
}

// markdownTable lays out a Markdown table of agentproto's table: the
// header of columns, and a row of cells for each method that row gives
// cells for (nil: the method has no row).
func markdownTable(columns []string, row func(agentproto.Method) []string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(columns, " | ") + " |\n|" + strings.Repeat("---|", len(columns)) + "\n")
	for _, m := range agentproto.Table() {
		if cells := row(m); cells != nil {
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
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

// readmeTable is the README's protocol table: the methods an editor with
// our plugins exchanges on the LSP face, who sends them and what they do.
func readmeTable() string {
	return markdownTable([]string{"direction", "method", "what"}, func(m agentproto.Method) []string {
		if !m.Faces.Has(agentproto.LSP) {
			return nil
		}
		arrow := "←"
		if m.Direction == agentproto.ClientRequest {
			arrow = "→"
		}
		what := m.Doc
		if m.Capability != "" {
			what += "; only to editors that declared `" + m.Capability + "`"
		}
		return []string{arrow, "`" + m.Name + "`", what}
	})
}

// acpTable is docs/acp.md's list of extension methods: the rows of the
// table that name the ACP face.
func acpTable() string {
	return markdownTable([]string{"extension method", "as", "params → result", "does"}, func(m agentproto.Method) []string {
		if !m.Faces.Has(agentproto.ACP) {
			return nil
		}
		return []string{"`" + m.ACPName() + "`", "`" + m.Name + "`", "`" + m.Params.Name() + "` → `" + m.Result.Name() + "`", m.Doc}
	})
}
