package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// parseArgs decodes a call's arguments into a params struct. Unlike decode it
// rejects unknown fields (the schemas forbid them), so a misspelt argument is
// reported to the model instead of being silently ignored.
func parseArgs(args json.RawMessage, into any) error {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return fmt.Errorf("invalid arguments: %s must be %s, not a JSON %s", te.Field, jsonKind(te.Type), te.Value)
		}
		return fmt.Errorf("invalid arguments: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return errors.New("invalid arguments: more than one JSON value")
	}
	return nil
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}

// resolve resolves a path argument; a failure is a message for the model.
func resolve(env Env, arg, p string) (workspace.Path, *Result) {
	if strings.TrimSpace(p) == "" {
		r := Failf("%s is required", arg)
		return workspace.Path{}, &r
	}
	rp, err := env.Workspace().Resolve(p)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, workspace.ErrOutside) {
			msg += " (paths are relative to the workspace root; files outside it cannot be used)"
		}
		r := Failf("%s: %s", arg, msg)
		return workspace.Path{}, &r
	}
	return rp, nil
}

// apply hands changes to env.Apply. A guard refusal becomes a refused Result
// and any other failure a failed Result carrying its text; only a cancelled
// context is returned as an error. A nil *Result means the changes were applied.
func apply(ctx context.Context, env Env, tool, label string, changes ...workspace.Change) (*Result, error) {
	err := env.Apply(ctx, tool, label, changes)
	if err == nil {
		return nil, nil
	}
	var ref *guard.Refusal
	if errors.As(err, &ref) {
		r := Refused(ref)
		return &r, nil
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	r := Failf("%s: %v", label, err)
	return &r, nil
}

// plansDir is the plans folder as config's PlansDir resolves it. Its error
// is not this helper's to report: the guard refuses changes in a folder
// that cannot hold plans, and listPlans reports the error.
func plansDir(env Env) string {
	d, _ := env.Config().PlansDir(env.Workspace().Root())
	return d
}

// isPlanFile reports whether p names a `.plan` file (not a folder).
func isPlanFile(p workspace.Path) bool {
	return !p.IsDir && path.Ext(p.Rel) == ".plan"
}

// argString returns a string argument of a call for its title, or "".
func argString(args json.RawMessage, key string) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

// title joins a verb and an argument, shortened for a one-line title.
func title(verb, arg string) string {
	arg = strings.Join(strings.Fields(arg), " ")
	if arg == "" {
		return verb
	}
	if r := []rune(arg); len(r) > 60 {
		arg = string(r[:59]) + "…"
	}
	return verb + " " + arg
}

// deref returns the Result r points to, or the zero Result.
func deref(r *Result) Result {
	if r == nil {
		return Result{}
	}
	return *r
}

// exists reports whether p exists on disk or as an editor buffer (an applied
// agent edit the editor has not saved yet).
func exists(ws *workspace.Workspace, p workspace.Path) bool {
	if p.Exists {
		return true
	}
	_, _, ok := ws.Overlay().Get(p.Abs)
	return ok
}
