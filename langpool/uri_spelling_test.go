package langpool

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/realservers"
)

// TestTypeScriptDiagnosticsOfFilesWithReservedCharacters: the pool sends a
// file's URI as Go's net/url spells it (file:///w/+page.ts);
// typescript-language-server spells the same file as vscode-uri does,
// percent-encoding the characters Go leaves as they are (+ @ ; , = $ & :):
// file:///w/%2Bpage.ts. A publish is matched to the file it names whatever
// the spelling, so such a file (SvelteKit's +page.ts, +layout.ts, a scoped
// @acme/… folder) gets its problems and settles like any other.
func TestTypeScriptDiagnosticsOfFilesWithReservedCharacters(t *testing.T) {
	tsls := realservers.TypeScriptLanguageServer(t)
	const broken = "const n: number = \"not a number\";\nexport { n };\n"
	names := []string{"+page.ts", "logo@2x.ts", "a,b.ts"}
	files := map[string]string{"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}}`, "plain.ts": broken}
	for _, n := range names {
		files[n] = broken
	}
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.LSPServer{"typescript": {Command: []string{tsls, "--stdio"}}}
	p, ws := poolOver(t, files, cfg)
	// The server starts and loads the project: the plain file's problem
	// comes (rig).
	plain := filepath.Join(ws.Root(), "plain.ts")
	if got := settle(t, p, plain)[plain]; len(got) != 1 || !strings.Contains(got[0].Message, "string") {
		t.Fatalf("rig: plain.ts = %+v, want its one type error", got)
	}
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			f := filepath.Join(ws.Root(), n)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			snap, settled, err := intel.Settle(ctx, p, []string{f}, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			got := snap.Files[f]
			if !settled || len(got) != 1 || !strings.Contains(got[0].Message, "string") {
				t.Fatalf("%s (the same text as plain.ts) = %+v, settled %v; want its one type error, settled", n, got, settled)
			}
		})
	}
}
