// Command grepbench runs workspace.Grep once over a folder and prints how
// many lines and files matched, so that bench/grep.sh can compare its time
// and its counts with ripgrep's.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/agentls/agentls/workspace"
)

func main() {
	dir := flag.String("dir", ".", "folder to search (the workspace root)")
	pattern := flag.String("pattern", "", "RE2 pattern")
	ignoreCase := flag.Bool("i", false, "case-insensitive")
	include := flag.String("include", "", "include glob")
	max := flag.Int("max", 1<<30, "max results")
	timing := flag.Bool("time", false, "print the elapsed time on stderr")
	flag.Parse()
	if err := run(*dir, *pattern, *include, *ignoreCase, *max, *timing); err != nil {
		fmt.Fprintln(os.Stderr, "grepbench:", err)
		os.Exit(1)
	}
}

func run(dir, pattern, include string, ignoreCase bool, max int, timing bool) error {
	start := time.Now()
	ws, err := workspace.New(dir)
	if err != nil {
		return err
	}
	base, err := ws.Resolve(".")
	if err != nil {
		return err
	}
	res, err := ws.Grep(context.Background(), workspace.GrepOptions{
		Pattern: pattern, Base: base, Include: include, CaseInsensitive: ignoreCase, MaxResults: max,
	})
	if err != nil {
		return err
	}
	files := map[string]bool{}
	for _, m := range res.Matches {
		files[m.Path] = true
	}
	fmt.Printf("lines=%d files=%d searched=%d\n", len(res.Matches), len(files), res.FilesSearched)
	if timing {
		fmt.Fprintln(os.Stderr, "elapsed", time.Since(start))
	}
	return nil
}
