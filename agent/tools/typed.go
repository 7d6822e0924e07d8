package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
)

// Def defines a tool by its parts. P is its params struct: the JSON Schema
// the model is shown is derived from P's fields and tags (see schemaOf), and
// every call's arguments are decoded into a P before Run sees them.
type Def[P any] struct {
	// Name is the model-facing name.
	Name string
	// Description is the model-facing description; empty means the
	// embedded descriptions/<Name>.md, where every tool of All keeps it.
	Description string
	// Kind is the ACP tool kind shown in tool_call updates (see Tool.Kind).
	Kind string
	// Guard is the tool's declaration to the guard; its Name is left empty.
	Guard guard.Decl
	// Title is a short human title for a call. Its params are decoded
	// leniently: fields that do not decode stay zero. nil means the name
	// followed by the first path argument the guard declaration names (see
	// pathTitle), or the name alone for a tool without one.
	Title func(p P) string
	// Run executes a call whose arguments decoded. Failures the model should
	// read are a failed Result; a Go error is an infrastructure failure.
	Run func(ctx context.Context, env Env, p P) (Result, error)
	// TellsStart: Run calls CommandStarting right before its command
	// starts, after any permission (the Tool New makes is a StartTeller).
	TellsStart bool
}

// New makes a Tool of d. Decoding the arguments (unknown ones rejected), the
// failed Result of arguments that do not decode and a panic in Run (a failed
// Result, logged) are handled here, once for every tool. It panics if P's
// schema cannot be derived: a params struct is fixed at compile time.
func New[P any](d Def[P]) Tool {
	params, err := schemaOf(reflect.TypeFor[P]())
	if err != nil {
		panic(fmt.Sprintf("tools: %s: %v", d.Name, err))
	}
	if d.Description == "" {
		d.Description = description(d.Name)
	}
	if d.Title == nil && len(d.Guard.Paths) > 0 {
		d.Title = pathTitle[P](d.Name, d.Guard.Paths[0].Name)
	}
	return typed[P]{def: d, params: params}
}

// TellsCommandStart implements StartTeller: the Def's TellsStart.
func (t typed[P]) TellsCommandStart() bool { return t.def.TellsStart }

// typed is the Tool New makes.
type typed[P any] struct {
	def    Def[P]
	params json.RawMessage
}

// Spec implements Tool.
func (t typed[P]) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name: t.def.Name, Description: t.def.Description, Parameters: bytes.Clone(t.params),
	}, Guard: t.def.Guard}
}

// Kind implements Tool.
func (t typed[P]) Kind() string { return t.def.Kind }

// Title implements Tool.
func (t typed[P]) Title(args json.RawMessage) string {
	if t.def.Title == nil {
		return t.def.Name
	}
	var p P
	_ = json.Unmarshal(args, &p) // a title shows what did decode
	return t.def.Title(p)
}

// Run implements Tool.
func (t typed[P]) Run(ctx context.Context, env Env, args json.RawMessage) (res Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			slog.Error("tool panicked", "tool", t.def.Name, "panic", v, "stack", string(debug.Stack()))
			res, err = Failf("internal error in %s: %v", t.def.Name, v), nil
		}
	}()
	var p P
	if invalid := decodeArgs(args, &p); invalid != nil {
		return Failf("%v", invalid), nil
	}
	return t.def.Run(ctx, env, p)
}

// pathTitle is the default title of a tool whose guard declaration names
// path arguments: "<name> `<value of arg>`", e.g. "write `src/a.go`". It panics
// when P has no string field of that JSON name: the declaration and the
// params struct are fixed at compile time.
func pathTitle[P any](name, arg string) func(P) string {
	pt := reflect.TypeFor[P]()
	for i := range pt.NumField() {
		f := pt.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == arg && f.Type.Kind() == reflect.String {
			return func(p P) string { return codeTitle(name, reflect.ValueOf(p).Field(i).String()) }
		}
	}
	panic(fmt.Sprintf("tools: %s declares the path argument %q, which is not a string field of its params", name, arg))
}

// selfDecoder is a params struct that decodes its own arguments, for a tool
// whose arguments need a finer check than their schema says (ask_user's
// questions). Its errors are shown to the model as they are.
type selfDecoder interface {
	decodeArgs(args json.RawMessage) error
}

// decodeArgs decodes a call's arguments into a params struct, rejecting
// unknown fields (the schemas forbid them), so that a misspelt argument is
// reported to the model instead of being silently ignored.
func decodeArgs(args json.RawMessage, into any) error {
	if d, ok := into.(selfDecoder); ok {
		return d.decodeArgs(args)
	}
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
