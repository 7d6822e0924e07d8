package main

import (
	"fmt"
	"strings"

	"github.com/agentls/agentls/agentproto"
)

// nameTable is one generated table of names: the short name of each row
// that has one, with its name on the wire.
type nameTable struct {
	ts, lua, doc string
	name         func(agentproto.Method) string // "" leaves the row out
}

// nameTables are the LSP methods, the commands and the ACP extension
// methods.
var nameTables = []nameTable{
	{"Methods", "methods", "The agent/* methods of the LSP face.", func(m agentproto.Method) string {
		if m.Faces.Has(agentproto.LSP) {
			return m.Name
		}
		return ""
	}},
	{"Commands", "commands", "The workspace/executeCommand commands; each takes its method's params as its argument.", func(m agentproto.Method) string { return m.Command }},
	{"AcpMethods", "acp_methods", "The ACP face's extension methods.", agentproto.Method.ACPName},
}

// rows are the table's short names and wire names, in the table's order.
func (n nameTable) rows() [][2]string {
	var out [][2]string
	for _, m := range agentproto.Table() {
		if name := n.name(m); name != "" {
			out = append(out, [2]string{m.Short(), name})
		}
	}
	return out
}

// writeNames writes every name table: head opens it, row (a format of the
// name and its value) writes each of its rows and tail closes it.
func writeNames(b *strings.Builder, head func(nameTable) string, row, tail string) {
	for _, n := range nameTables {
		b.WriteString(head(n))
		for _, r := range n.rows() {
			fmt.Fprintf(b, row, r[0], r[1])
		}
		b.WriteString(tail)
	}
}
