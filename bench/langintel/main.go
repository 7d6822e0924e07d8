// Command langintel measures what the language intelligence adds to an
// edit (docs/language-intel.md, budgets): agentls's pool with the real gopls
// on a small Go module — the cold start to the first settled diagnostics,
// then per edit (an applied edit, as the overlay has it) the time until its
// diagnostics settled (the settle rule: polls every 100 ms, 200 ms of
// quiet), and the pool's resident memory.
//
//	go run ./bench/langintel -gopls $(scripts/install-lsp | tail -n 1)/gopls
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/langpool"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/workspace"
)

func main() {
	sandbox.Main() // this binary is the servers' sandbox launcher
	gopls := flag.String("gopls", "gopls", "the gopls binary")
	edits := flag.Int("edits", 20, "edits to measure")
	flag.Parse()
	if err := run(os.Stdout, *gopls, *edits); err != nil {
		fmt.Fprintln(os.Stderr, "langintel:", err)
		os.Exit(1)
	}
}

const mainGo = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Greet(\"x\"))\n}\n"

// run prints the measurements to w.
func run(w io.Writer, gopls string, edits int) error {
	root, err := os.MkdirTemp("", "langintel-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": mainGo,
		"greet.go": "package main\n\n// Greet greets.\nfunc Greet(name string) string { return \"hello \" + name }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	ws, err := workspace.New(root)
	if err != nil {
		return err
	}
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.LSPServer{"go": {Command: []string{gopls}}}
	pool := langpool.New(langpool.Options{Workspace: ws, Config: cfg, CacheDir: filepath.Join(root, ".cache")})
	defer pool.Close()
	ctx := context.Background()
	main := filepath.Join(ws.Root(), "main.go")
	start := time.Now()
	if _, settled, err := intel.Settle(ctx, pool, []string{main}, time.Minute); err != nil || !settled {
		return fmt.Errorf("first diagnostics: settled %v, %v", settled, err)
	}
	cold := time.Since(start)
	var times []time.Duration
	unsettled := 0
	for i := range edits {
		text := mainGo
		if i%2 == 0 {
			text = strings.Replace(mainGo, `Greet("x")`, fmt.Sprintf("Greet(%d)", i), 1) // a type error
		}
		ws.Overlay().SetApplied(main, text)
		t0 := time.Now()
		_, settled, err := intel.Settle(ctx, pool, []string{main}, intel.DefaultBudget)
		if err != nil {
			return err
		}
		if !settled {
			unsettled++
		}
		times = append(times, time.Since(t0))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	fmt.Fprintf(w, "gopls %s, sandbox %s\n", gopls, sandbox.Detect().Status(sandbox.ModeAuto).Mode)
	fmt.Fprintf(w, "%-40s %10s\n", "cold start to first settled diagnostics", cold.Round(time.Millisecond))
	fmt.Fprintf(w, "%-40s %10s %10s %10s  (%d edits, %d not settled in %s)\n", "added time per edit (median, p90, max)",
		times[len(times)/2].Round(time.Millisecond), times[len(times)*9/10].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond),
		edits, unsettled, intel.DefaultBudget)
	fmt.Fprintf(w, "%-40s %10.1f MB\n", "pool resident memory (gopls, 1 module)", float64(pool.MemoryBytes())/(1<<20))
	return nil
}
