package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ServerNames are the names of a session's servers (shared and its own),
// started or not.
func (p *Pool) ServerNames(sessionID string) []string {
	var out []string
	for _, s := range p.servers(sessionID) {
		out = append(out, s.spec.Name)
	}
	return out
}

// Server is the session's server named name (shared or its own), or nil.
func (p *Pool) Server(sessionID, name string) *Server { return p.server(sessionID, name) }

// server is the session's server named name, or nil.
func (p *Pool) server(sessionID, name string) *Server {
	for _, s := range p.servers(sessionID) {
		if s.spec.Name == name {
			return s
		}
	}
	return nil
}

// SessionPrompts are the prompts of the session's running servers (a
// server that has not started yet lists none: servers start lazily).
func (p *Pool) SessionPrompts(sessionID string) []PromptInfo {
	var out []PromptInfo
	for _, s := range p.servers(sessionID) {
		out = append(out, s.Prompts()...)
	}
	return out
}

// GetPrompt gets a prompt of the session's server as text.
func (p *Pool) GetPrompt(ctx context.Context, sessionID, server, name string, args map[string]string) (string, error) {
	s := p.server(sessionID, server)
	if s == nil {
		return "", fmt.Errorf("no MCP server %q in this session", server)
	}
	return s.GetPrompt(ctx, name, args)
}

// ReadResource reads uri from the session's server named server; with
// server "" from the first of the session's servers (by name) that offers
// resources and can read it (each is started if needed).
func (p *Pool) ReadResource(ctx context.Context, sessionID, server, uri string) (text, from string, err error) {
	if server != "" {
		s := p.server(sessionID, server)
		if s == nil {
			return "", "", fmt.Errorf("no MCP server %q in this session", server)
		}
		text, err := s.ReadResource(ctx, uri)
		return text, server, err
	}
	var errs []string
	for _, s := range p.servers(sessionID) {
		if st := State(s.Status().State); st == StateSkipped || st == StateStopped {
			continue
		}
		text, err := s.ReadResource(ctx, uri)
		if err == nil {
			return text, s.spec.Name, nil
		}
		errs = append(errs, err.Error())
	}
	if len(errs) == 0 {
		return "", "", errors.New("no MCP server of this session offers resources")
	}
	return "", "", fmt.Errorf("no MCP server of this session could read %s: %s", uri, strings.Join(errs, "; "))
}
