package mcpclient

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
)

// everythingPool is a pool with the real server-everything as "every",
// the workspace of two folders (as with an ACP additionalDirectories).
func everythingPool(t *testing.T) (*Pool, string, string) {
	t.Helper()
	entry := everythingServer(t)
	root, extra := t.TempDir(), t.TempDir()
	p := NewPool(root, []string{root, extra}, os.Environ)
	t.Cleanup(p.Close)
	p.Configure(config.Default(), []ServerSpec{{Name: "every", Command: "node", Args: []string{entry, "stdio"}, Origin: FromConfig}})
	return p, root, extra
}

// TestEverythingExtras runs the real server-everything's resources,
// prompts, elicitation (form and URL), progress, roots and list_changed
// through mcpclient: the tools it registers once it knows the client's
// capabilities (elicitation, roots) arrive by tools/list_changed; its
// roots are the workspace folders (an ACP additionalDirectories among
// them); a form elicitation reaches the call's
// hooks with its schema, and the answer (with the schema's defaults
// filled in) reaches the server; a URL elicitation carries its URL; the
// long-running operation's progress reaches the call's hooks; a prompt
// renders as text; a resource reads as text.
func TestEverythingExtras(t *testing.T) {
	p, root, extra := everythingPool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ts := p.SessionTools(ctx, "s")
	if len(ts) == 0 {
		t.Fatalf("no tools; %+v", p.Status())
	}
	s := p.servers("s")[0]
	// The conditional tools come by tools/list_changed after initialize.
	deadline := time.After(30 * time.Second)
	for !hasTool(s, "trigger-elicitation-request") || !hasTool(s, "get-roots-list") {
		select {
		case <-s.toolsListed():
		case <-deadline:
			t.Fatalf("the conditional tools never came (tools/list_changed); tools: %d", len(s.tools))
		}
	}
	call := func(tool string, args map[string]any, hooks *CallHooks) string {
		t.Helper()
		res, err := s.CallWith(ctx, tool, args, time.Minute, 100000, hooks)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return res.Text
	}
	if r := call("get-roots-list", map[string]any{}, nil); !strings.Contains(r, "file://"+root) || !strings.Contains(r, "file://"+extra) {
		t.Errorf("roots = %q, want the workspace folders %s and %s", r, root, extra)
	}

	var mu sync.Mutex
	var asked []tools.MCPElicitation
	var progress []string
	hooks := &CallHooks{
		Elicit: func(ctx context.Context, e tools.MCPElicitation) (tools.MCPElicitReply, error) {
			mu.Lock()
			asked = append(asked, e)
			mu.Unlock()
			if e.Mode == "url" {
				return tools.MCPElicitReply{Action: "decline"}, nil
			}
			return tools.MCPElicitReply{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		Progress: func(m string) { mu.Lock(); progress = append(progress, m); mu.Unlock() },
	}
	r := call("trigger-elicitation-request", map[string]any{}, hooks)
	if !strings.Contains(r, "Ada") || !strings.Contains(r, "It was a dark and stormy night.") {
		t.Errorf("form elicitation result = %.600q, want the answer and the schema's default", r)
	}
	if len(asked) != 1 || asked[0].Mode != "form" || !strings.Contains(string(asked[0].Schema), `"firstLine"`) || asked[0].Server != "every" {
		t.Fatalf("elicitations = %+v", asked)
	}
	r = call("trigger-url-elicitation", map[string]any{"url": "https://example.com/x", "message": "visit"}, hooks)
	if len(asked) != 2 || asked[1].Mode != "url" || asked[1].URL != "https://example.com/x" || !strings.Contains(r, "decline") {
		t.Errorf("URL elicitation: asked %+v, result %.300q", asked, r)
	}
	r = call("trigger-long-running-operation", map[string]any{"duration": 2, "steps": 4}, hooks)
	mu.Lock()
	if len(progress) < 2 || !strings.Contains(strings.Join(progress, " "), "/4") {
		t.Errorf("progress = %q (result %q)", progress, r)
	}
	mu.Unlock()

	prompts := p.SessionPrompts("s")
	var names []string
	for _, pr := range prompts {
		names = append(names, pr.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "simple-prompt") || !strings.Contains(strings.Join(names, " "), "args-prompt") {
		t.Fatalf("prompts = %v", names)
	}
	text, err := p.GetPrompt(ctx, "s", "every", "args-prompt", map[string]string{"city": "Lyon"})
	if err != nil || !strings.Contains(text, "Lyon") {
		t.Errorf("args-prompt = %q, %v", text, err)
	}
	text, from, err := p.ReadResource(ctx, "s", "", "demo://resource/dynamic/text/1")
	if err != nil || from != "every" || text == "" {
		t.Errorf("resource = %q from %q, %v", text, from, err)
	}
}

func hasTool(s *Server, name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
