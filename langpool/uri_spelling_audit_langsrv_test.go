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
// file's URI as Go's net/url spells it (file:///w/+page.ts) and keeps
// each publishDiagnostics under the URI string the server sends.
// typescript-language-server spells the same file as vscode-uri does,
// percent-encoding the characters Go leaves as they are (+ @ ; , = $ & :):
// file:///w/%2Bpage.ts. The two strings never match, so such a file's
// publish is never taken for it: it stays pending, every edit of it ends
// `settled: false` with no problem at all, and the tick gate lets a step
// pass with a type error in it. SvelteKit's route files are all named so
// (+page.ts, +layout.ts, +server.ts), as are scoped folders (@acme/…)
// and a workspace under such a path breaks every file. A publish must be
// matched to the file it names, whatever the URI's spelling.
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
