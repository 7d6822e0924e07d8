package mcpclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentls/agentls/config"
)

// TestHTTPServer: a streamable HTTP server (the SDK's server side on
// 127.0.0.1) gets the static headers on every request, its tools are
// listed (mutating unless listed) and called.
func TestHTTPServer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "web", Version: "1"}, nil)
	type args struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "shout", Description: "Upper-cases text.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(a.Text)}}}, nil, nil
		})
	var mu sync.Mutex
	var auths []string
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close) // after p.Close (cleanups run last first): the pool ends its standalone SSE stream

	p := NewPool(t.TempDir(), nil, nil)
	t.Cleanup(p.Close)
	p.Configure(config.Default(), []ServerSpec{{Name: "web", Type: "http", URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer t0k"}, Origin: FromConfig}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tools := p.SessionTools(ctx, "s")
	if len(tools) != 1 {
		t.Fatalf("tools = %d; status %+v", len(tools), p.Status())
	}
	tool := tools[0].(*Tool)
	if tool.name != "mcp__web__shout" || tool.ReadOnly() {
		t.Errorf("tool %s read-only %v", tool.name, tool.ReadOnly())
	}
	res, err := p.servers("s")[0].Call(ctx, "shout", map[string]any{"text": "hi"}, 10*time.Second, 1000)
	if err != nil || res.Text != "HI" {
		t.Fatalf("call: %+v %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auths) == 0 {
		t.Fatal("no request reached the server")
	}
	for _, a := range auths {
		if a != "Bearer t0k" {
			t.Fatalf("a request without the static header: %q", auths)
		}
	}
	if st := p.Status()[0]; State(st.State) != StateRunning || st.Command != ts.URL {
		t.Errorf("status %+v", st)
	}
}
