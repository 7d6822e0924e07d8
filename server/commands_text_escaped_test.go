package server_test

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestProjectCommandTextEscapedInList: a repository's command file chooses
// its description and argument hint; they reach a person (VS Code's `/`
// completion, Neovim's menu, ACP's available_commands_update). docs/protocol.md
// promises that every text reaching a person passes the one server-side
// escape (questions.Escape): a bidi override (U+202E), a zero-width
// character or an isolate must arrive as `\u202E`, so a listed command cannot
// read as something else (textline.OneLine drops only white space and C0/C1
// controls, not Unicode format characters).
func TestProjectCommandTextEscapedInList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, file string }{
		{"description", "---\ndescription: \"Run the tests \u202E(evil)\"\n---\nRun the tests.\n"},
		{"argument hint", "---\ndescription: Review\nargument-hint: \"<file\u2066>\"\n---\nReview $ARGUMENTS.\n"},
		{"first line", "Review \u200Bthis \u202Dfile.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := lsptest.Start(t, lsptest.Setup{
				Files:  map[string]string{".agentls/commands/cmd.md": tc.file},
				Script: "name: none\nsteps:\n  - text: unused\n",
			})
			s := h.NewSession("plan")
			found := false
			for _, c := range h.ListCommands(s.SessionID) {
				if c.Name != "cmd" {
					continue
				}
				found = true
				for what, text := range map[string]string{"description": c.Description, "hint": c.Hint} {
					if i := strings.IndexFunc(text, func(r rune) bool {
						return r == '\u202E' || r == '\u202D' || r == '\u2066' || r == '\u200B'
					}); i >= 0 {
						t.Errorf("agent/listCommands gives the project command's %s %q: it holds the format character %U unescaped", what, text, []rune(text[i:])[0])
					}
				}
			}
			if !found {
				t.Fatal("the project command cmd is not listed")
			}
		})
	}
}
