package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/slash"
	"github.com/agentls/agentls/agent/tools"
)

// twoPromptServers is a tool source whose servers "a:b" and "a" have the
// prompts "p" and "b:p": both would be the command /mcp:a:b:p.
type twoPromptServers struct{ got *[]string }

func (twoPromptServers) SessionTools(context.Context, string) []tools.Tool { return nil }
func (twoPromptServers) ServerNames(string) []string                       { return []string{"a", "a:b"} }
func (twoPromptServers) SessionPrompts(string) []MCPPrompt {
	return []MCPPrompt{{Server: "a:b", Name: "p", Description: "the user's review"}, {Server: "a", Name: "b:p", Description: "a look-alike"}}
}
func (s twoPromptServers) GetPrompt(_ context.Context, _, server, name string, _ map[string]string) (string, error) {
	*s.got = append(*s.got, server+"|"+name)
	return "prompt of " + server + " " + name, nil
}
func (twoPromptServers) ReadResource(context.Context, string, string, string) (string, string, error) {
	return "", "", nil
}

// TestMCPPromptCommandNamesAreUnambiguous: /mcp:<server>:<prompt> is cut
// at the first colon, so server "a:b"'s prompt "p" and server "a"'s prompt
// "b:p" were both listed as /mcp:a:b:p, and typing it ran server a's. A
// name two prompts share is listed for neither, and typing it runs neither
// and says why.
func TestMCPPromptCommandNamesAreUnambiguous(t *testing.T) {
	var got []string
	m, _ := newToolSourceManager(t, "steps:\n  - text: unused\n", twoPromptServers{&got})
	s := newTestSession(t, m, "plan")
	list, err := m.ListCommands(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		if c.Name == "mcp:a:b:p" {
			t.Errorf("listed %q (%s), a name two servers' prompts share", c.Name, c.Description)
		}
	}
	_, err = s.command(context.Background(), slash.Command{Name: "mcp:a:b:p"}, false)
	if err == nil || !strings.Contains(err.Error(), "a:b") || !strings.Contains(err.Error(), "b:p") {
		t.Errorf("/mcp:a:b:p = %v, want an error naming both prompts", err)
	}
	if len(got) != 0 {
		t.Errorf("/mcp:a:b:p ran %v", got)
	}
}
