package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkScanWorkspace: the walk before each command and MCP server
// over a tree as large as maxVCSWalk lets it look at (a node_modules of
// 1,000 packages of 199 files, a nested repository and an auto-run file
// in some), on a warm cache.
func BenchmarkScanWorkspace(b *testing.B) {
	root := b.TempDir()
	for p := 0; p < 1000; p++ {
		pkg := filepath.Join(root, "node_modules", "pkg"+strconv.Itoa(p))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 198; f++ {
			if err := os.WriteFile(filepath.Join(pkg, strconv.Itoa(f)+".js"), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		name := ".git"
		if p%10 == 0 {
			name = ".vscode"
		}
		if err := os.Mkdir(filepath.Join(pkg, name), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var scan workspaceScan
	for b.Loop() {
		scan = scanWorkspace([]string{root})
	}
	b.ReportMetric(float64(len(scan.vcs)+len(scan.autoRun)), "found")
}
