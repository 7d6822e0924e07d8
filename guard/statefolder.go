package guard

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// WithState returns a copy of the guard that also keeps every tool out of
// agentls's state folder at these paths (`$XDG_STATE_HOME/agentls/`,
// config.StateDir: trust records, plan locks, generated questions),
// wherever the workspace is and in every mode: no change (like the
// configuration, reason ReasonAgentState) and no read either (CheckCall on
// read-only tools' path arguments). A tool that could write a trust record
// could make the next start apply a workspace file the user declined; one
// that could read the folder would learn other projects' plans and trust.
// Relative and empty paths are ignored.
func (g *Guard) WithState(dirs ...string) *Guard {
	c := *g
	c.state = withAbs(g.state, dirs)
	return &c
}

// stateWhat names the state folder in refusals.
func stateWhat(dir string) string {
	return "agentls's state folder " + dir + " (trust records, plan locks)"
}

const stateInstead = "it is agentls's own bookkeeping, changed only by agentls on the user's answers"

// unreadableRoots are the places no tool may read: agentls's state folder
// and its configuration known by path (the user's config folders and the
// --config file, which may hold model.api_key), as given and as their
// symlinks lead. Outside a check's copy (forCheck) they are read from
// scratch without the workspace's symlinked protected names, which are
// never unreadable: a read-only call does not list the workspace folders.
func (g *Guard) unreadableRoots() []protectedRoot {
	if g.roots == nil {
		return g.knownRoots()
	}
	var out []protectedRoot
	for _, r := range *g.roots {
		if r.unreadable {
			out = append(out, r)
		}
	}
	return out
}

// readRefusal refuses a read-only call whose declared path argument names
// agentls's state or configuration known by path (by its name as given, or
// by where it resolves). Arguments that cannot be read are left to the tool,
// which refuses them itself; nil means allowed.
func (g *Guard) readRefusal(st State, tool string, d Decl, args json.RawMessage) *Refusal {
	if len(d.Paths) == 0 {
		return nil
	}
	roots := g.unreadableRoots()
	if len(roots) == 0 {
		return nil
	}
	a, err := parseArgs(args)
	if err != nil {
		return nil
	}
	for _, p := range d.Paths {
		v, present, err := a.str(p.Name)
		if err != nil || !present || v == "" {
			continue
		}
		if r := unreadableAt(g, roots, v); r != nil {
			ref := refuse(st, tool, d.Kind, ReasonAgentState, v, fmt.Sprintf(
				"%q is or is inside %s; no tool may read or change it in any mode; %s", v, r.what, r.instead))
			ref.Protected = r.what
			return ref
		}
	}
	return nil
}

// unreadableAt returns the unreadable place a given path names or leads
// into, or nil.
func unreadableAt(g *Guard, roots []protectedRoot, given string) *protected {
	decoded, err := decodeGiven(given)
	if err != nil || decoded == "" {
		return nil
	}
	if !filepath.IsAbs(decoded) {
		decoded = filepath.Join(g.ws.Root(), decoded)
	}
	paths := []string{filepath.Clean(decoded)}
	if real, err := g.canonical(filepath.Clean(decoded)); err == nil {
		paths = append(paths, real)
	}
	for _, p := range paths {
		for _, r := range roots {
			if underFold(p, r.abs) {
				return r.p
			}
		}
	}
	return nil
}
