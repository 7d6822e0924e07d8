package acp

import (
	"slices"
	"sort"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestExtMethodsFromTable: the ACP face serves exactly the rows of
// agentproto's table that name it.
func TestExtMethodsFromTable(t *testing.T) {
	var want, got []string
	for _, m := range agentproto.Table() {
		if m.Faces.Has(agentproto.ACP) {
			want = append(want, m.ACPName())
		}
	}
	for name := range (&Agent{}).extMethods() {
		got = append(got, name)
	}
	sort.Strings(want)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("the ACP face serves %v; the table's ACP rows are %v", got, want)
	}
}
