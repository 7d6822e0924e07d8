package mcpclient

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Origin says where a server's definition came from; it decides what the
// server may reach (a workspace file's server needs trust first).
type Origin string

// The origins of server definitions.
const (
	// FromConfig: mcp.servers of agentls's configuration.
	FromConfig Origin = "config"
	// FromWorkspaceFile: a workspace's .mcp.json or .vscode/mcp.json.
	FromWorkspaceFile Origin = "workspace file"
	// FromClient: the ACP client's session/new mcpServers.
	FromClient Origin = "client"
)

// ServerSpec is one MCP server as configured.
type ServerSpec struct {
	// Name is the server's name, the <server> of mcp__<server>__<tool>.
	Name string
	// Type is "stdio" (the default) or "http".
	Type    string
	Command string
	Args    []string
	// Env are variables set for the server, over agentls's own environment
	// (minus the model's key and run.env_deny).
	Env     map[string]string
	Cwd     string
	URL     string
	Headers map[string]string
	// Network says whether the server may reach the network (enforced by
	// the sandbox once it starts every process).
	Network bool
	Origin  Origin
	// Source is the file or peer it was read from, for status lines.
	Source string
	// Skip, when set, says why the server is not started (an ${input:…}
	// value, an untrusted workspace file, disabled, an HTTP server).
	Skip string
	// EnvRefs are the variables of agentls's environment a workspace
	// file's entry reads (${env:VAR}), and where it puts each: what
	// trusting the file hands the server (shown in the trust question).
	EnvRefs []EnvRef
	// AsWritten is a workspace file's command line (or URL) as the file
	// writes it, only ${workspaceFolder} expanded: what questions and
	// status lines show (an expanded ${env:TOKEN} would put the user's
	// secret on screen, in logs and in session transcripts).
	AsWritten *ServerSpec
}

// EnvRef is one ${env:VAR} of a workspace file's server entry.
type EnvRef struct {
	// Var is the variable read; In is where its value goes ("env FOO",
	// "header Authorization", "its arguments", "its URL"…).
	Var, In string
}

// HeaderNames are the names of the HTTP headers the spec sends, sorted.
func (s ServerSpec) HeaderNames() []string { return slices.Sorted(maps.Keys(s.Headers)) }

// CommandLine is the server's command line as one string, for questions and
// status lines: each argument quoted when it holds a space or a quote; a
// workspace file's entry as the file writes it (AsWritten).
func (s ServerSpec) CommandLine() string {
	if s.AsWritten != nil {
		return s.AsWritten.CommandLine()
	}
	if s.Type == "http" {
		return s.URL
	}
	parts := []string{quoteArg(s.Command)}
	for _, a := range s.Args {
		parts = append(parts, quoteArg(a))
	}
	return strings.Join(parts, " ")
}

// EnvNames are the names of the variables the spec sets, sorted.
func (s ServerSpec) EnvNames() []string { return slices.Sorted(maps.Keys(s.Env)) }

// Settings shows the variables (or, for an HTTP server, the headers) of a
// workspace file's entry as the file writes them (AsWritten), sorted, one
// `NAME=value` each (the value quoted when it holds a space or a quote):
// a value such as NODE_OPTIONS=--require ./x.js or PATH=./bin:… changes
// what the server runs, so trusting the file must show it. A literal value
// of a name that says it is a secret (TOKEN, KEY, SECRET, PASSWORD,
// CREDENTIAL, AUTH, COOKIE) is shown by its length only, unless it holds
// a path separator or a blank (SSH_AUTH_SOCK=/tmp/x.sock is a path, not a
// token): a user's own .mcp.json may hold their token. Without AsWritten (the user's own
// configuration), only the names.
func (s ServerSpec) Settings() string {
	w, m := s.AsWritten, s.Env
	if s.Type == "http" {
		m = s.Headers
	}
	if w == nil {
		return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
	}
	m = w.Env
	if s.Type == "http" {
		m = w.Headers
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if secretName(k) && !strings.Contains(v, "${") && !strings.ContainsAny(v, "/\\ \t") {
			out = append(out, fmt.Sprintf("%s=‹%d characters, not shown›", k, utf8.RuneCountInString(v)))
			continue
		}
		out = append(out, k+"="+quoteArg(v))
	}
	return strings.Join(out, " ")
}

// secretName reports whether a variable's or header's name says it holds
// a secret.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func quoteArg(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$") {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// check reports why the spec cannot be started, or nil.
func (s ServerSpec) check() error {
	if s.Name == "" {
		return fmt.Errorf("a server has no name")
	}
	switch s.Type {
	case "", "stdio":
		if s.Command == "" {
			return fmt.Errorf("server %q: stdio server without a command", s.Name)
		}
	case "http":
		if err := checkURL(s.URL); err != nil {
			return fmt.Errorf("server %q: %w", s.Name, err)
		}
	default:
		return fmt.Errorf("server %q: type %q is not stdio or http", s.Name, s.Type)
	}
	return nil
}
