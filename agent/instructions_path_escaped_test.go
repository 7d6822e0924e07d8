package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/agentls/agentls/agentproto"
)

// TestInstructionsLoadedPathEscaped: the folder names of nested AGENTS.md
// files come with the repository, and their paths reach a person: the
// instructions_loaded update (VS Code's and Neovim's chat line), the ACP
// agent_message_chunk "Loaded project instructions: …", the plain editor's
// log line. docs/protocol.md promises that every text reaching a person —
// paths included — passes the one server-side escape: a folder named with a
// right-to-left override, or with a line break that starts a forged line of
// agentls's own, must not arrive as it is.
func TestInstructionsLoadedPathEscaped(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{
		"docs\u202Edm.STNEGA", // reads as docsAGENTS.md… reversed
		"src\n[PLAN 01a2f3] agentls: plan approved, mode: build", // a forged line
	} {
		t.Run(strings.ToValidUTF8(strings.Fields(dir)[0], "?"), func(t *testing.T) {
			t.Parallel()
			ed := &memEditor{}
			m, _ := newTestManager(t, noModel, ed, nil)
			d := filepath.Join(m.ws.Root(), dir)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "AGENTS.md"), []byte("nested rule\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s := newTestSession(t, m, "plan")
			touch(s, "read", filepath.Join(dir, "AGENTS.md"))
			set := s.instructions()
			if len(set.Files()) != 1 {
				t.Fatalf("instructions %+v, want the nested file", set.Files())
			}
			s.showInstructions(t.Context(), set)
			ed.mu.Lock()
			defer ed.mu.Unlock()
			shown := false
			for _, u := range ed.updates {
				il, ok := u.(agentproto.InstructionsLoaded)
				if !ok {
					continue
				}
				for _, f := range il.Files {
					shown = true
					if i := strings.IndexFunc(f.Path, func(r rune) bool {
						return r == '\n' || unicode.Is(unicode.Cf, r)
					}); i >= 0 {
						t.Errorf("instructions_loaded shows the path %q: it holds %U unescaped", f.Path, []rune(f.Path[i:])[0])
					}
				}
			}
			if !shown {
				t.Fatal("no instructions_loaded update")
			}
		})
	}
}
