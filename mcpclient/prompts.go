package mcpclient

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of prompts and resources.
const (
	// maxPrompts is the most prompts one server may offer.
	maxPrompts = 256
	// maxContextBytes caps a prompt's or resource's text put in a message.
	maxContextBytes = 256 << 10
	// getTimeout bounds getting a prompt or reading a resource.
	getTimeout = 60
)

// PromptInfo is one prompt of a running server.
type PromptInfo struct {
	Server, Name, Description string
	Args                      []PromptArg
}

// PromptArg is one argument of a prompt.
type PromptArg struct {
	Name, Description string
	Required          bool
}

// listPrompts lists every prompt, page by page, at most maxPrompts; none
// when the server offers no prompts.
func listPrompts(ctx context.Context, cs *mcp.ClientSession) []*mcp.Prompt {
	if r := cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Prompts == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	var out []*mcp.Prompt
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			slog.Warn("mcp: list prompts", "err", err)
			return out
		}
		if len(out) == maxPrompts {
			break
		}
		out = append(out, p)
	}
	return out
}

// offersResources reports whether the server said it has resources.
func offersResources(cs *mcp.ClientSession) bool {
	r := cs.InitializeResult()
	return r != nil && r.Capabilities != nil && r.Capabilities.Resources != nil
}

// relistPrompts reads the prompt list of cs again (prompts/list_changed).
func (s *Server) relistPrompts(cs *mcp.ClientSession) {
	defer s.wg.Done()
	prompts := listPrompts(context.Background(), cs)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.relistingPrompts = false
	if s.state == StateRunning && s.cs == cs {
		s.prompts = prompts
	}
}

// Prompts are the server's prompts, when it runs (listing does not start
// a server).
func (s *Server) Prompts() []PromptInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateRunning {
		return nil
	}
	out := make([]PromptInfo, 0, len(s.prompts))
	for _, p := range s.prompts {
		info := PromptInfo{Server: s.spec.Name, Name: p.Name, Description: capLine(firstNonEmpty(p.Description, p.Title), 200)}
		for _, a := range p.Arguments {
			if a != nil {
				info.Args = append(info.Args, PromptArg{Name: a.Name, Description: capLine(a.Description, 200), Required: a.Required})
			}
		}
		out = append(out, info)
	}
	return out
}

// GetPrompt gets prompt name with args from the server (starting it if
// needed) and renders its messages as text of at most maxContextBytes.
func (s *Server) GetPrompt(ctx context.Context, name string, args map[string]string) (string, error) {
	cs, err := s.session(ctx)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, getTimeout*time.Second)
	defer cancel()
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("MCP server %q, prompt %q: %w", s.spec.Name, name, err)
	}
	return joinCapped(res.Messages, "\n\n", func(b *strings.Builder, m *mcp.PromptMessage) {
		if m.Role != "user" {
			fmt.Fprintf(b, "(%s:) ", m.Role)
		}
		b.WriteString(contentText(m.Content))
	}), nil
}

// ReadResource reads uri from the server (starting it if needed) as text of
// at most maxContextBytes; binary contents are named, not shown.
func (s *Server) ReadResource(ctx context.Context, uri string) (string, error) {
	cs, err := s.session(ctx)
	if err != nil {
		return "", err
	}
	if !offersResources(cs) {
		return "", fmt.Errorf("MCP server %q offers no resources", s.spec.Name)
	}
	ctx, cancel := context.WithTimeout(ctx, getTimeout*time.Second)
	defer cancel()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", fmt.Errorf("MCP server %q, resource %s: %w", s.spec.Name, uri, err)
	}
	return joinCapped(res.Contents, "\n", func(b *strings.Builder, c *mcp.ResourceContents) {
		if c.Text != "" || len(c.Blob) == 0 {
			b.WriteString(c.Text)
		} else {
			fmt.Fprintf(b, "[binary resource %s %s, %d bytes, not shown]", c.URI, c.MIMEType, len(c.Blob))
		}
	}), nil
}

// joinCapped writes each item that is not nil, sep before every item but
// the first, as text of at most maxContextBytes.
func joinCapped[T any](items []*T, sep string, write func(*strings.Builder, *T)) string {
	var b strings.Builder
	for i, item := range items {
		if item == nil {
			continue
		}
		if i > 0 {
			b.WriteString(sep)
		}
		write(&b, item)
	}
	text, _ := capText(b.String(), maxContextBytes)
	return text
}

// contentText is one content block as text (render's rules).
func contentText(c mcp.Content) string {
	return render(&mcp.CallToolResult{Content: []mcp.Content{c}}, 0).Text
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
