// Command tooldefs prints the bytes of tool definitions agentls sends with
// every model request: the "tools" JSON of a Chat Completions request as the
// openai provider encodes it, in plan mode and in build mode, and per tool.
// The reference columns are what plan mode sent before it offered only its
// own tools (every tool, as build mode still does), what each mode sent before
// issue 9 item 6 shortened the descriptions, and the targets of issue 9.
//
//	go run ./bench/tooldefs
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/openai"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// targets are issue 9's goals for the tool definitions, in bytes.
var targets = map[agentproto.Mode]int{agentproto.ModeBuild: 12 * 1024, agentproto.ModePlan: 8 * 1024}

// beforeLean is what each mode sent before issue 9 item 6 ("leaner tool
// definitions") shortened the descriptions, in bytes (measured at 51de538).
var beforeLean = map[agentproto.Mode]int{agentproto.ModeBuild: 30159, agentproto.ModePlan: 19915}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tooldefs:", err)
		os.Exit(1)
	}
}

// run prints the table to w.
func run(w io.Writer) error {
	reg, err := tools.NewRegistry(tools.All()...)
	if err != nil {
		return err
	}
	size := func(specs []llm.ToolSpec) (int, error) {
		b, err := openai.ToolsJSON(specs)
		return len(b), err
	}
	before, err := size(reg.Specs()) // plan mode offered every tool
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-30s %10s %16s %12s %12s\n", "tool definitions per request", "agentls", "before (all)", "before #9.6", "target")
	for _, mode := range []agentproto.Mode{agentproto.ModeBuild, agentproto.ModePlan} {
		offered := reg.Offered(mode)
		n, err := size(offered)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-30s %10s %16s %12s %12s\n", fmt.Sprintf("%s mode (%d tools)", mode, len(offered)), kb(n), kb(before), kb(beforeLean[mode]), "≤ "+kb(targets[mode]))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-30s %10s %16s\n", "per tool", "bytes", "in plan mode")
	for _, spec := range reg.Specs() {
		n, err := size([]llm.ToolSpec{spec})
		if err != nil {
			return err
		}
		d, _ := reg.Declarations().Lookup(spec.Name)
		where := "offered"
		if d.Plan != guard.OfferedInPlan {
			where = "not offered"
		}
		fmt.Fprintf(w, "%-30s %10d %16s\n", spec.Name, n-len("[]"), where)
	}
	return nil
}

// kb renders a byte count in KiB with one decimal.
func kb(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/1024) }
