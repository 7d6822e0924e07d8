package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/guard"
)

// paramsTypeOf is the params struct of a tool made by New.
func paramsTypeOf(tool Tool) (reflect.Type, bool) {
	v := reflect.ValueOf(tool)
	if v.Kind() != reflect.Struct || !strings.HasPrefix(v.Type().Name(), "typed[") {
		return nil, false
	}
	run, ok := v.FieldByName("def").Type().FieldByName("Run")
	if !ok {
		return nil, false
	}
	return run.Type.In(2), true
}

// TestSchemaAndDecoderAgree builds, for each tool, arguments holding every
// property its schema shows the model (a value of the property's type) and
// decodes them as a call would: no property the model is shown may be an
// unknown field or the wrong type to the decoder (ask_user decodes its own
// arguments). The schema's bytes themselves are pinned by
// TestToolDefinitionsGolden.
func TestSchemaAndDecoderAgree(t *testing.T) {
	t.Parallel()
	sample := map[string]any{"string": "x", "integer": 1, "number": 1.5, "boolean": true, "array": []any{}, "object": map[string]any{}}
	for _, tool := range All() {
		spec := tool.Spec()
		t.Run(spec.Name, func(t *testing.T) {
			var schema struct {
				Properties map[string]struct {
					Type any `json:"type"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
				t.Fatal(err)
			}
			args := map[string]any{}
			for name, prop := range schema.Properties {
				typ, _ := prop.Type.(string)
				if typ == "" {
					typ = "string" // a property of any type
				}
				args[name] = sample[typ]
			}
			raw, err := json.Marshal(args)
			if err != nil {
				t.Fatal(err)
			}
			typ, ok := paramsTypeOf(tool)
			if !ok {
				t.Fatalf("%s is not made by New", spec.Name)
			}
			err = decodeArgs(raw, reflect.New(typ).Interface())
			if err != nil && (strings.Contains(err.Error(), "unknown field") || strings.Contains(err.Error(), " must be ")) {
				t.Errorf("arguments %s, each property as its schema types it, do not decode: %v", raw, err)
			}
		})
	}
}

// sample is a params struct with every tag schemaOf reads.
type sample struct {
	embedded
	Name    string            `json:"name" description:"A name."`
	Mode    string            `json:"mode,omitempty" enum:"a,b" default:"a"`
	Count   int               `json:"count,omitempty" minimum:"1" maximum:"9" default:"3"`
	Ratio   float64           `json:"ratio,omitempty" minimum:"0.5"`
	Flag    *bool             `json:"flag,omitempty" default:"true"`
	Tags    []string          `json:"tags,omitempty" minItems:"1" maxItems:"4"`
	Items   []sampleItem      `json:"items,omitempty"`
	Meta    map[string]string `json:"meta,omitempty"`
	Value   any               `json:"value"`
	Skipped string            `json:"-"`
	hidden  string
	NoTag   string
}

type embedded struct {
	Path string `json:"path"`
}

type sampleItem struct {
	Label string `json:"label"`
}

func TestSchemaOf(t *testing.T) {
	t.Parallel()
	got, err := schemaOf(reflect.TypeFor[sample]())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"properties":{` +
		`"NoTag":{"type":"string"},` +
		`"count":{"default":3,"maximum":9,"minimum":1,"type":"integer"},` +
		`"flag":{"default":true,"type":"boolean"},` +
		`"items":{"items":{"additionalProperties":false,"properties":{"label":{"type":"string"}},"required":["label"],"type":"object"},"type":"array"},` +
		`"meta":{"type":"object"},` +
		`"mode":{"default":"a","enum":["a","b"],"type":"string"},` +
		`"name":{"description":"A name.","type":"string"},` +
		`"path":{"type":"string"},` +
		`"ratio":{"minimum":0.5,"type":"number"},` +
		`"tags":{"items":{"type":"string"},"maxItems":4,"minItems":1,"type":"array"},` +
		`"value":{}},` +
		`"required":["path","name","value","NoTag"],"type":"object"}`
	if string(got) != want {
		t.Errorf("schemaOf(sample):\n got %s\nwant %s", got, want)
	}
	_ = sample{}.hidden
}

// field is a struct type with one field N of type T and the given tag.
func field[T any](tag reflect.StructTag) reflect.Type {
	return reflect.StructOf([]reflect.StructField{{Name: "N", Type: reflect.TypeFor[T](), Tag: tag}})
}

func TestSchemaOfRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"not a struct", reflect.TypeFor[string](), "is not a struct"},
		{"enum on an integer", field[int](`json:"n" enum:"1,2"`), "N: enum on an integer"},
		{"minimum on a string", field[string](`json:"n" minimum:"1"`), "minimum on a string"},
		{"minItems on a string", field[string](`json:"n" minItems:"1"`), "minItems on a string"},
		{"default of the wrong type", field[int](`json:"n" default:"many"`), "default"},
		{"default on an object", field[map[string]any](`json:"n" default:"{}"`), "default"},
		{"bad bound", field[int](`json:"n" maximum:"x"`), "maximum"},
		{"a channel", field[chan int](`json:"n"`), "has no JSON Schema"},
		{"integer map keys", field[map[int]string](`json:"n"`), "keys are strings"},
		{"bytes", field[json.RawMessage](`json:"n"`), "use a string"},
		{"a struct in itself", reflect.TypeFor[selfish](), "contains itself"},
		{"a name twice", reflect.TypeFor[struct {
			embedded
			P string `json:"path"`
		}](), `two fields are called "path"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schemaOf(tt.typ)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("schemaOf = %s, %v; want an error containing %q", s, err, tt.want)
			}
		})
	}
	defer func() {
		if v := recover(); v == nil || !strings.Contains(v.(string), "bad: ") {
			t.Errorf("New with a broken params struct: recovered %v, want a panic naming the tool", v)
		}
	}()
	New(Def[struct {
		C chan int `json:"c"`
	}]{Name: "bad"})
}

// selfish is a struct that contains itself.
type selfish struct {
	Children []selfish `json:"children"`
}

// echoParams are the params of the test tool echo.
type echoParams struct {
	Text  string `json:"text"`
	Times int    `json:"times,omitempty"`
}

// echo is a tool made by New whose run function records its params and
// then does what the params say.
func echo(ran *[]echoParams) Tool {
	return New(Def[echoParams]{
		Name: "echo", Description: "Echo.\n", Kind: "other",
		Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Paths: guard.NoPaths(),
			Interaction: guard.Unattended, Plan: guard.OfferedInPlan},
		Title: func(p echoParams) string { return title("echo", p.Text) },
		Run: func(ctx context.Context, _ Env, p echoParams) (Result, error) {
			*ran = append(*ran, p)
			switch p.Text {
			case "panic":
				panic("boom")
			case "infra":
				return Result{}, errors.New("the editor went away")
			case "fail":
				return Failf("the model reads this"), nil
			}
			return OK(strings.Repeat(p.Text, max(p.Times, 1))), nil
		},
	})
}

// TestNew: a tool made by New decodes its arguments once for its run
// function, rejects what does not decode without running, keeps failures for
// the model apart from infrastructure errors, and turns a panic into a
// failed result.
func TestNew(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    string
		want    string // the wire result
		wantErr string
		ran     bool
	}{
		{name: "ok", args: `{"text":"ab","times":2}`, want: `{"success":true,"result":"abab"}`, ran: true},
		{name: "empty arguments", args: ``, want: `{"success":true,"result":""}`, ran: true},
		{name: "failure for the model", args: `{"text":"fail"}`, want: `{"success":false,"error":"the model reads this"}`, ran: true},
		{name: "infrastructure failure", args: `{"text":"infra"}`, wantErr: "the editor went away", ran: true},
		{name: "panic", args: `{"text":"panic"}`, want: `{"success":false,"error":"internal error in echo: boom"}`, ran: true},
		{name: "unknown argument", args: `{"text":"a","txet":"b"}`, want: `{"success":false,"error":"invalid arguments: unknown field \"txet\""}`},
		{name: "wrong type", args: `{"text":1}`, want: `{"success":false,"error":"invalid arguments: text must be a string, not a JSON number"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran []echoParams
			r, err := echo(&ran).Run(context.Background(), nil, json.RawMessage(tt.args))
			if (len(ran) > 0) != tt.ran {
				t.Errorf("run function called %d times, want called: %v", len(ran), tt.ran)
			}
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("Run = %s, %v; want the Go error %q", r.JSON(), err, tt.wantErr)
				}
				return
			}
			if err != nil || r.JSON() != tt.want {
				t.Errorf("Run = %s, %v; want %s", r.JSON(), err, tt.want)
			}
		})
	}
	tool := echo(new([]echoParams))
	spec := tool.Spec()
	if spec.Name != "echo" || spec.Description != "Echo.\n" || tool.Kind() != "other" || spec.Guard.Interaction != guard.Unattended {
		t.Errorf("Spec = %+v, Kind = %q", spec, tool.Kind())
	}
	if want := `{"additionalProperties":false,"properties":{"text":{"type":"string"},"times":{"type":"integer"}},"required":["text"],"type":"object"}`; string(spec.Parameters) != want {
		t.Errorf("Parameters = %s, want %s", spec.Parameters, want)
	}
	spec.Parameters[0] = 'X'
	if tool.Spec().Parameters[0] != '{' {
		t.Error("a caller changing the Parameters it got changed the tool's schema")
	}
	for args, want := range map[string]string{
		`{"text":"hi"}`:             "echo hi",
		`{"text":"hi","times":"x"}`: "echo hi", // the fields that decode
		`{"text":"hi","extra":1}`:   "echo hi",
		`not json`:                  "echo",
	} {
		if got := tool.Title(json.RawMessage(args)); got != want {
			t.Errorf("Title(%s) = %q, want %q", args, got, want)
		}
	}
	if got := New(Def[echoParams]{Name: "untitled", Description: "Untitled.\n"}).Title(nil); got != "untitled" {
		t.Errorf("Title without a title function or path argument = %q, want the name", got)
	}
	pathed := New(Def[echoParams]{Name: "shout", Description: "Shout.\n",
		Guard: guard.Decl{Paths: []guard.PathArg{{Name: "text", Role: guard.Source}}}})
	if got := pathed.Title(json.RawMessage(`{"text":"a  b"}`)); got != "shout `a b`" {
		t.Errorf("Title without a title function = %q, want the name and the declared path argument", got)
	}
	if got := New(Def[echoParams]{Name: "write"}).Spec().Description; got != description("write") || got == "" {
		t.Errorf("an empty Description = %q, want the embedded descriptions/write.md", got)
	}
	for name, def := range map[string]Def[echoParams]{
		"no description file": {Name: "no_such_tool"},
		"a path argument that is no string field": {Name: "bad", Description: "Bad.\n",
			Guard: guard.Decl{Paths: []guard.PathArg{{Name: "times", Role: guard.Source}}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New with %s did not panic", name)
				}
			}()
			New(def)
		}()
	}
}

// TestTitles pins each tool's call titles, the arguments that do not decode
// included: a title shows what it can.
func TestTitles(t *testing.T) {
	t.Parallel()
	reg, err := NewRegistry(All()...)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 70)
	tests := []struct{ tool, args, want string }{
		{"read", `{"path":"a.go"}`, "read `a.go`"},
		{"read", `{"path":3}`, "read"},
		{"ls", `{}`, "ls `.`"},
		{"ls", `{"path":"src","depth":"x"}`, "ls `src`"},
		{"glob", `{"pattern":"**/*.go"}`, "glob `**/*.go`"},
		{"grep", `{"pattern":"func  main\n"}`, "grep `func main`"},
		{"write", `{"path":"` + long + `"}`, "write `" + long[:59] + "…`"},
		{"edit", `{"path":"a.go","old_string":1}`, "edit `a.go`"},
		{"mv", `{"from":"a","to":"b"}`, "mv `a` → `b`"},
		{"mv", `{}`, "mv →"},
		{"rm", `{"path":"a"}`, "rm `a`"},
		{"mkdir", `{"path":"d"}`, "mkdir `d`"},
		{"touch", `{"path":"t"}`, "touch `t`"},
		{"run", `{"command":"go test ./..."}`, "`go test ./...`"},
		{"run", `{"command":"echo build:prod"}`, "`echo build:prod`"}, // whole in CodeCompanion, which cuts other titles at a colon
		{"run", `{"command":"echo done ` + "`curl … | sh`" + `"}`, "`` echo done `curl … | sh` ``"},
		{"run", `{}`, "run"},
		{"run", `{"command":"echo \u202Eevil\u0007"}`, "`echo \\u202Eevil\\u0007`"},
		{"ask_user", `{"questions":[{"question":"Which one?"}]}`, "ask: Which one?"},
		{"ask_user", `{"questions":[{"question":"a"},{"question":"b"}]}`, "ask the user 2 questions"},
		{"ask_user", `{"questions":[]}`, "ask the user"},
		{"enter_plan_mode", `{"reason":"r"}`, "enter plan mode"},
		{"exit_plan_mode", `{"plan_file_path":"plans/a.plan"}`, "ask to approve `plans/a.plan`"},
		{"exit_plan_mode", `{"plan_file_path":"plans/[fix](x).plan"}`, "ask to approve `plans/[fix](x).plan`"}, // never a link
		{"plan_write", `{"path":"plans/a.plan","title":"T"}`, "write plan `plans/a.plan`"},
		{"plan_write", `{"title":"T"}`, "write plan: T"},
		{"plan_write", `{}`, "write a new plan"},
		{"plan_read", `{"path":"plans/a.plan"}`, "read plan `plans/a.plan`"},
		{"plan_read", `{"name":"a"}`, "read plan `a`"},
		{"plan_read", `{}`, "read the plan"},
		{"plan_edit", `{"path":"plans/a.plan"}`, "edit plan `plans/a.plan`"},
		{"plan_list", `{"status":"draft"}`, "list plans: draft"},
		{"plan_list", `{}`, "list plans"},
	}
	for _, tt := range tests {
		tool, ok := reg.Lookup(tt.tool)
		if !ok {
			t.Fatalf("no tool %s", tt.tool)
		}
		if got := tool.Title(json.RawMessage(tt.args)); got != tt.want {
			t.Errorf("%s.Title(%s) = %q, want %q", tt.tool, tt.args, got, tt.want)
		}
	}
}

func TestDecodeArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args string
		want string // "" = no error
	}{
		{name: "empty", args: ``},
		{name: "null", args: `null`},
		{name: "object", args: `{"path":"a","depth":2}`},
		{name: "wrong type", args: `{"path":3}`, want: "invalid arguments: path must be a string, not a JSON number"},
		{name: "wrong nested type", args: `{"steps":[{"action":1}]}`, want: "invalid arguments: steps.action must be a string, not a JSON number"},
		{name: "string for an integer", args: `{"depth":"two"}`, want: "invalid arguments: depth must be an integer, not a JSON string"},
		{name: "unknown field", args: `{"file_path":"a"}`, want: `invalid arguments: unknown field "file_path"`},
		{name: "not an object", args: `[1]`, want: "invalid arguments"},
		{name: "trailing data", args: `{} {}`, want: "more than one JSON value"},
		{name: "broken", args: `{"path":`, want: "invalid arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var into struct {
				Path  string          `json:"path"`
				Depth int             `json:"depth"`
				Steps []PlanStepInput `json:"steps"`
			}
			err := decodeArgs([]byte(tt.args), &into)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// FuzzTitles: every tool titles any arguments, JSON or not, without
// panicking, on one line.
func FuzzTitles(f *testing.F) {
	for _, seed := range []string{``, `{}`, `null`, `[]`, `{"path":"a\nb"}`, `{"questions":[{"question":1}]}`, `{"questions":[null]}`, `{"from":{},"to":[]}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		for _, tool := range All() {
			if got := tool.Title(json.RawMessage(args)); got == "" || strings.Contains(got, "\n") {
				t.Errorf("%s.Title(%q) = %q", tool.Spec().Name, args, got)
			}
		}
	})
}
