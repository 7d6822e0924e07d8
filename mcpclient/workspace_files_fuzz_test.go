package mcpclient

import (
	"regexp"
	"strings"
	"testing"
)

// FuzzWorkspaceFileShowsEveryVariableItReads parses arbitrary bytes as a
// workspace's .mcp.json (anyone may have written it) and holds what the
// trust question promises: each value of the user's environment that
// reaches a server that would start (command, arguments, env, headers,
// cwd, URL) is named in its EnvRefs, which the question lists; a variable
// agentls keeps from servers never reaches one; and every server has its
// entry as written to show.
func FuzzWorkspaceFileShowsEveryVariableItReads(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"fs":{"command":"npx","args":["-y","srv","${workspaceFolder}"],"env":{"TOKEN":"${env:GITHUB_TOKEN}"}}}}`,
		`{"mcpServers":{"web":{"type":"http","url":"https://x.example/${env:HOST}/mcp","headers":{"Authorization":"Bearer ${env:SECRET_KEY}"}}}}`,
		`{"mcpServers":{"a":{"command":"${env:SHELL}","cwd":"${env:HOME}/x","args":["${input:pw}"]},"b":{"command":"x","disabled":true}}}`,
		`{"mcpServers":{"c":{"Command":"x","command":"y","ENV":{"A":"${env:A}"}}}}`,
		`{"mcpServers":null}`, `[]`, `{"mcpServers":{"d":{"type":"sse","url":"${env:U}"}}}`,
	} {
		f.Add([]byte(s))
	}
	marker := regexp.MustCompile(`⟦val:([^⟧]*)⟧`)
	getenv := func(name string) string { return "⟦val:" + name + "⟧" }
	denied := func(name string) bool { return strings.Contains(name, "SECRET") }
	f.Fuzz(func(t *testing.T, data []byte) {
		if strings.Contains(string(data), "⟦") {
			return // the file wrote a marker itself
		}
		specs, err := parseWorkspaceFile(data, "mcpServers", "/ws", "/ws/.mcp.json", getenv, denied)
		if err != nil {
			if specs != nil {
				t.Fatalf("an error and servers: %v", err)
			}
			return
		}
		for _, s := range specs {
			if s.AsWritten == nil || s.Origin != FromWorkspaceFile {
				t.Fatalf("server %q: as written %v, origin %q", s.Name, s.AsWritten, s.Origin)
			}
			if s.Skip != "" {
				continue
			}
			values := append([]string{s.Command, s.Cwd, s.URL}, s.Args...)
			for _, m := range []map[string]string{s.Env, s.Headers} {
				for _, v := range m {
					values = append(values, v)
				}
			}
			for _, v := range values {
				for _, m := range marker.FindAllStringSubmatch(v, -1) {
					name := m[1]
					if denied(name) {
						t.Fatalf("server %q gets %s, a variable agentls keeps from servers", s.Name, name)
					}
					listed := false
					for _, r := range s.EnvRefs {
						listed = listed || r.Var == name
					}
					if !listed {
						t.Fatalf("server %q gets the value of %s, not listed in %+v", s.Name, name, s.EnvRefs)
					}
				}
			}
		}
	})
}
