package mcpclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentls/agentls/config"
)

// TestRootsAreTheWorkspaceFolders: agentls advertises the workspace
// folders as the client's roots (docs/mcp.md: "Roots are advertised: the
// workspace folders"), and servers act on them (server-filesystem makes
// its allowed directories the roots' paths). A root is a file:// URI: a
// folder whose name holds '#', '?', '%' or a space ("~/src/C#/app", "50%
// done", "My Project") must be advertised as that folder. Here the server
// (the SDK's server side over HTTP) asks roots/list and decodes each URI
// as a server does; every decoded path must be a workspace folder. It
// fails while the root is "file://" + the path unescaped: the folder
// "…/C#/app" reaches the server as "…/C" (the rest is a fragment).
func TestRootsAreTheWorkspaceFolders(t *testing.T) {
	base := t.TempDir()
	var folders []string
	for _, name := range []string{filepath.Join("C#", "app"), "50% done", "what?"} {
		f := filepath.Join(base, name)
		if err := os.MkdirAll(f, 0o755); err != nil {
			t.Fatal(err)
		}
		folders = append(folders, f)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "rooted", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "roots", Description: "Lists the client's roots, decoded."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.ListRoots(ctx, nil) //lint:ignore SA1019 roots are what this test checks
			if err != nil {
				return nil, nil, err
			}
			var paths []string
			for _, r := range res.Roots {
				u, err := url.Parse(r.URI)
				if err != nil {
					paths = append(paths, "unparsable "+r.URI)
					continue
				}
				paths = append(paths, u.Path)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(paths, "\n")}}}, nil, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)

	p := NewPool(folders[0], folders, nil)
	t.Cleanup(p.Close)
	p.Configure(config.Default(), []ServerSpec{{Name: "rooted", Type: "http", URL: ts.URL, Origin: FromConfig}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if n := len(p.SessionTools(ctx, "s")); n != 1 {
		t.Fatalf("tools = %d; status %+v", n, p.Status())
	}
	res, err := p.servers("s")[0].Call(ctx, "roots", map[string]any{}, 10*time.Second, 10000)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(res.Text, "\n")
	slices.Sort(got)
	slices.Sort(folders)
	if !slices.Equal(got, folders) {
		t.Errorf("the server reads the roots as\n  %q\nwant the workspace folders\n  %q", got, folders)
	}
}
