package langpool

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/realservers"
	"github.com/agentls/agentls/sandbox"
)

// TestRealServersUnderLandlockAlone: gopls and typescript-language-server
// answer under Landlock alone, where the launcher's filter refuses every
// unix socket (tsserver talks to its parent over a socketpair, which the
// filter lets through).
func TestRealServersUnderLandlockAlone(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeLandlock); st.Mode != "landlock" {
		t.Skipf("needs Landlock: %s", st.Summary)
	}
	for _, c := range []struct {
		name, fileType string
		command        func(t *testing.T) []string
		files          map[string]string
		file, problem  string
	}{
		{"gopls", "go", func(t *testing.T) []string { return []string{realservers.Gopls(t)} },
			map[string]string{"go.mod": goMod, "main.go": mainGo, "greet.go": greetGo}, "main.go", "unused"},
		{"typescript-language-server", "typescript", func(t *testing.T) []string {
			return []string{realservers.TypeScriptLanguageServer(t), "--stdio"}
		}, map[string]string{
			"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}}`,
			"a.ts":          "const n: number = \"x\";\nconsole.log(n);\n",
		}, "a.ts", "string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Sandbox.Mode = "landlock"
			cfg.LSP.Servers = map[string]config.LSPServer{c.fileType: {Command: c.command(t)}}
			p, ws := poolOver(t, c.files, cfg)
			file := filepath.Join(ws.Root(), c.file)
			got := settle(t, p, file)[file]
			if len(got) != 1 || !strings.Contains(got[0].Message, c.problem) {
				t.Fatalf("diagnostics = %+v, want one about %q", got, c.problem)
			}
		})
	}
}
