package tools

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// Bounds of grep's arguments.
const (
	defaultGrepResults = 100
	maxGrepResults     = 1000
	maxGrepContext     = 10
	// MaxGrepBytes caps the text of grep's matches (context lines
	// included): the matches that do not fit are left out, as truncated.
	MaxGrepBytes = 50 << 10
)

// GrepParams are the arguments of grep.
type GrepParams struct {
	Pattern         string `json:"pattern"`
	Path            string `json:"path,omitempty" description:"File or folder (default: root)."`
	Include         string "json:\"include,omitempty\" description:\"Glob of files to search: `*.go` matches names at any depth, `src/**/*.ts` paths.\""
	CaseInsensitive bool   `json:"case_insensitive,omitempty"`
	Context         int    `json:"context,omitempty" minimum:"0" description:"Lines before and after each match, at most 10."`
	MaxResults      int    `json:"max_results,omitempty" minimum:"0" description:"Default 100, at most 1000."`
}

// GrepHit is one matching line of grep's result.
type GrepHit struct {
	Path   string   `json:"path"`
	Line   int      `json:"line"`
	Text   string   `json:"text"`
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
}

// size is roughly the bytes h adds to grep's result.
func (h GrepHit) size() int {
	n := len(h.Path) + len(h.Text) + 32
	for _, l := range h.Before {
		n += len(l) + 4
	}
	for _, l := range h.After {
		n += len(l) + 4
	}
	return n
}

// GrepOutput is grep's result.
type GrepOutput struct {
	Matches       []GrepHit `json:"matches"`
	Truncated     bool      `json:"truncated"`
	FilesSearched int       `json:"files_searched"`
}

// runGrep runs grep.
func runGrep(ctx context.Context, env Env, p GrepParams) (Result, error) {
	if strings.TrimSpace(p.Pattern) == "" {
		return Failf("pattern is required"), nil
	}
	if p.Context < 0 || p.MaxResults < 0 {
		return Failf("context and max_results must not be negative"), nil
	}
	p.Context = min(p.Context, maxGrepContext)
	if p.MaxResults == 0 {
		p.MaxResults = defaultGrepResults
	}
	p.MaxResults = min(p.MaxResults, maxGrepResults)
	base, fail := searchBase(env, p.Path)
	if fail != nil {
		return *fail, nil
	}
	res, err := env.Workspace().Grep(ctx, workspace.GrepOptions{
		Pattern: p.Pattern, Base: base, Include: p.Include,
		CaseInsensitive: p.CaseInsensitive, Context: p.Context, MaxResults: p.MaxResults,
	})
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		return Failf("grep %s: %v", p.Pattern, err), nil
	}
	out := GrepOutput{Matches: make([]GrepHit, 0, len(res.Matches)), Truncated: res.Truncated, FilesSearched: res.FilesSearched}
	size := 0
	for _, m := range res.Matches {
		hit := GrepHit{Path: m.Path, Line: m.Line, Text: m.Text, Before: m.Before, After: m.After}
		size += hit.size()
		if size > MaxGrepBytes && len(out.Matches) > 0 {
			out.Truncated = true
			break
		}
		out.Matches = append(out.Matches, hit)
	}
	return OK(out), nil
}

// grepTool searches file contents with a regular expression.
var grepTool = New(Def[GrepParams]{Name: "grep", Kind: "search", Run: runGrep,
	Title: func(p GrepParams) string { return codeTitle("grep", p.Pattern) },
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Source, Optional: true}}},
})
